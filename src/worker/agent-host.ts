/**
 * The worker's side of an agent: wires the engine, the loop and the stores,
 * and answers the page through comlink (see protocol.ts).
 */
import * as Comlink from 'comlink';
import { AgentError } from '../errors';
import type { AgentEvent, FunctionCall, FunctionResponse } from '../session/event';
import type { ToolOutcome } from '../tools/invoke-tool';
import type { Session, SessionStore } from '../session/store';
import { openSessionStore } from '../session/open-store';
import { repairInterrupted } from '../session/repair';
import { withSessionLock } from '../session/session-lock';
import { publishEvent } from '../session/broadcast';
import { recentEvents } from '../session/recent-events';
import { exportSession, importSession } from '../session/jsonl';
import type { ModelEngine, ToolChoice } from '../model/engine';
import type { ToolDeclaration } from '../tools/declaration';
import { DEFAULT_AGENT_NAME } from '../flow/agents';
import { openApprovalRequest } from '../flow/approval';
import { runInvocation, type InvocationStart } from '../flow/run-invocation';
import type { EventDraft } from '../flow/record';
import { sessionStats } from '../flow/stats';
import type { AgentSpec, FlowHooks, Invocation, ToolRunner } from '../flow/types';
import { EnginePool } from './engine-pool';
import { eventChannel } from './event-channel';
import { holdLifeline } from './lifeline';
import type {
  AgentHostApi,
  AgentStats,
  HostConfig,
  HostInfo,
  ImportProgress,
  PageApi,
  RunInput,
  SessionView,
  ToolCallRequest,
} from './protocol';
import { createToolkitBinding, type ToolkitBinding } from './toolkit-binding';

interface Ready {
  config: HostConfig;
  page: PageApi;
  store: SessionStore;
  engine: ModelEngine;
  releaseEngine(): Promise<void>;
  session: Session;
  info: HostInfo;
  toolkit: ToolkitBinding;
}

export class AgentHost implements AgentHostApi {
  private ready?: Ready;
  private readonly tools = new Map<string, ToolDeclaration>();
  private readonly runs = new Map<string, AbortController>();
  private readonly chunkSinks = new Map<string, (chunk: unknown) => void>();

  /** `engines` is shared by every host of a SharedWorker, so each tab reuses loaded weights. */
  constructor(private readonly engines: EnginePool = new EnginePool()) {}

  /** Holds a Web Lock for as long as this worker lives (see lifeline.ts). */
  holdLifeline(name: string): Promise<void> {
    return holdLifeline(name);
  }

  async init(config: HostConfig, page: PageApi): Promise<HostInfo> {
    page.status('starting');
    const { store, notice } = await openSessionStore({
      storage: config.storage,
      dbName: config.dbName,
      appName: config.appName,
    });
    let session = config.sessionId ? await store.get(config.sessionId) : undefined;
    if (!session)
      session = await store.create({ id: config.sessionId, appName: config.appName, userId: config.userId });
    if (notice) {
      // storage: 'auto' fell back to memory: say so in the session itself, where every UI looks.
      const said = await store.append(session.id, {
        id: crypto.randomUUID(),
        sessionId: session.id,
        invocationId: 'storage',
        author: 'system',
        timestamp: Date.now(),
        error: { code: 'storage-unavailable', message: notice },
      });
      publishEvent(config.dbName, said);
    }
    // A crash or reload between a call and its answer leaves the call open; answer it 'interrupted' (never re-run it).
    const repaired = await repairInterrupted(store, session.id);
    for (const event of repaired) publishEvent(config.dbName, event);
    for (const tool of config.tools) this.tools.set(tool.name, tool);

    page.status('loading-model');
    const { engine, release, reused } = await this.engines.acquire(
      config.model,
      (progress) => void page.progress(progress),
    );
    const toolkit = await createToolkitBinding(config, store);
    const info: HostInfo = {
      sessionId: session.id,
      model: engine.info,
      storage: store.kind,
      storageNotice: notice,
      modelShared: reused,
      host: 'SharedWorkerGlobalScope' in self ? 'shared-worker' : 'worker',
    };
    this.ready = { config, page, store, engine, releaseEngine: release, session, info, toolkit };
    page.status('ready');
    // In a SharedWorker, a closed tab never says goodbye: its lock's release does.
    if (config.tabLock) void navigator.locks.request(config.tabLock, () => this.close());
    return info;
  }

  async run(input: RunInput): Promise<ReadableStream<AgentEvent>> {
    if (typeof input.text !== 'string' || !input.text.trim()) {
      throw new AgentError('invalid-options', 'agent.run(text) needs a non-empty text.');
    }
    const ready = this.need();
    const open = openApprovalRequest(await recentEvents(ready.store, ready.session.id));
    return this.invoke(
      input.runId,
      input.ifBusy,
      { kind: 'user', text: input.text, before: open ? supersede(open) : undefined },
      undefined,
      input.toolChoice,
    );
  }

  abort(runId: string): void {
    this.runs.get(runId)?.abort();
  }

  async decideApproval(
    runId: string,
    callId: string,
    granted: boolean,
    reason?: string,
  ): Promise<ReadableStream<AgentEvent>> {
    const ready = this.need();
    const history = await recentEvents(ready.store, ready.session.id);
    const open = openApprovalRequest(history);
    if (!open || !open.undecided.includes(callId)) {
      throw new AgentError(
        'not-pending',
        `No call "${callId}" is waiting for approval in session ${ready.session.id}.`,
      );
    }
    const decision = { author: 'user', actions: { approval: { callId, granted, ...(reason ? { reason } : {}) } } };
    if (open.undecided.length > 1) {
      // Other calls of that turn still wait: record this decision and stop there.
      const stored = await ready.store.append(ready.session.id, {
        ...decision,
        id: crypto.randomUUID(),
        sessionId: ready.session.id,
        invocationId: open.request.invocationId,
        timestamp: Date.now(),
      });
      publishEvent(ready.config.dbName, stored);
      return streamOf(stored);
    }
    const calls = functionCalls(open.modelEvent);
    return this.invoke(
      runId,
      'wait',
      { kind: 'calls', agentName: open.modelEvent.author, calls, before: [decision] },
      open.request.invocationId,
    );
  }

  async resolveTool(runId: string, callId: string, result: unknown): Promise<ReadableStream<AgentEvent>> {
    const ready = this.need();
    const history = await recentEvents(ready.store, ready.session.id);
    const waiting = [...history].reverse().find((event) => event.longRunningToolIds?.includes(callId));
    const answered = history.some((event) =>
      event.content?.parts.some(
        (part) => 'functionResponse' in part && part.functionResponse.id === callId && !event.late,
      ),
    );
    const call = waiting && findCall(history, callId);
    if (!waiting || !call || answered) {
      throw new AgentError(
        'not-pending',
        `No long-running call "${callId}" is waiting for a result in session ${ready.session.id}.`,
      );
    }
    const response = {
      author: waiting.author,
      content: {
        role: 'tool' as const,
        parts: [{ functionResponse: { id: callId, name: call.name, response: result } }],
      },
    };
    return this.invoke(runId, 'wait', { kind: 'continue', before: [response] }, waiting.invocationId);
  }

  async pendingApprovals() {
    const ready = this.need();
    const open = openApprovalRequest(await recentEvents(ready.store, ready.session.id));
    if (!open) return [];
    return (open.request.actions?.requestApproval ?? []).filter((call) => open.undecided.includes(call.callId));
  }

  /** A tool that finished after its call was stopped: kept in the log as late, never used. */
  async recordLate(request: ToolCallRequest, outcome: ToolOutcome): Promise<void> {
    const ready = this.need();
    const response: FunctionResponse = outcome.ok
      ? { id: request.callId, name: request.name, response: outcome.result.content }
      : { id: request.callId, name: request.name, response: null, error: outcome.error.message };
    const stored = await ready.store.append(request.sessionId, {
      id: crypto.randomUUID(),
      sessionId: request.sessionId,
      invocationId: request.invocationId,
      author: request.agentName,
      timestamp: Date.now(),
      late: true,
      content: { role: 'tool', parts: [{ functionResponse: response }] },
      toolTimings: { [request.callId]: outcome.ms },
    });
    publishEvent(ready.config.dbName, stored);
  }

  toolChunk(callId: string, chunk: unknown): void {
    this.chunkSinks.get(callId)?.(chunk);
  }

  async registerTools(tools: ToolDeclaration[]): Promise<void> {
    for (const tool of tools) this.tools.set(tool.name, tool);
  }

  async unregisterTool(name: string): Promise<void> {
    this.tools.delete(name);
  }

  listSessions() {
    const { store, config } = this.need();
    return store.list({ appName: config.appName, userId: config.userId });
  }

  async getSession(id: string): Promise<SessionView | undefined> {
    const { store } = this.need();
    const session = await store.get(id);
    if (!session) return undefined;
    return { id, state: session.state, events: await store.events(id), session };
  }

  async deleteSession(id: string): Promise<void> {
    await this.need().store.delete(id);
  }

  exportSession(id: string): Promise<string> {
    return exportSession(this.need().store, id);
  }

  importSession(jsonl: string, onProgress?: (progress: ImportProgress) => void): Promise<string> {
    return importSession(this.need().store, jsonl, { onProgress });
  }

  async toolkitCall(method: string, args: unknown[]): Promise<unknown> {
    return this.need().toolkit.call(method, args);
  }

  async modelCall(method: 'isCached' | 'deleteCache'): Promise<unknown> {
    const { engine } = this.need();
    if (method === 'isCached') return (await engine.isCached?.()) ?? false;
    await engine.deleteCache?.();
    return undefined;
  }

  async stats(): Promise<AgentStats> {
    const ready = this.need();
    return sessionStats(ready.session.id, await ready.store.events(ready.session.id));
  }

  async close(): Promise<void> {
    for (const controller of this.runs.values()) controller.abort();
    const ready = this.ready;
    this.ready = undefined;
    if (!ready) return;
    await ready.releaseEngine();
    ready.store.close();
    ready.page.status('closed');
  }

  private need(): Ready {
    if (!this.ready)
      throw new AgentError('closed', 'This agent is not started or was closed; create a new one with createAgent().');
    return this.ready;
  }

  /** Runs one invocation under the session's lock, streaming its events to the page. */
  private invoke(
    runId: string,
    ifBusy: 'wait' | 'fail',
    start: InvocationStart,
    invocationId: string = crypto.randomUUID(),
    toolChoice?: ToolChoice,
  ): ReadableStream<AgentEvent> {
    const ready = this.need();
    const controller = new AbortController();
    this.runs.set(runId, controller);
    const channel = eventChannel();
    const { config, store, page } = ready;
    const sessionId = ready.session.id;

    void withSessionLock(sessionId, { ifBusy, signal: controller.signal }, async () => {
      page.status('running');
      // Another tab may have added events since we last looked: read the log under the lock.
      const history = await recentEvents(store, sessionId);
      const session = (await store.get(sessionId)) ?? ready.session;
      const inv: Invocation = {
        sessionId,
        invocationId,
        appName: config.appName,
        userId: config.userId,
        store,
        engine: ready.engine,
        tools: this.tools,
        agents: agentsOf(config),
        rootAgent: config.rootAgent ?? config.agents[0]?.name ?? DEFAULT_AGENT_NAME,
        runner: this.toolRunner(page),
        hooks: hooksOf(config, page),
        selector: ready.toolkit.selector(),
        limits: { maxSteps: config.maxSteps, maxToolCallsPerStep: config.maxToolCallsPerStep },
        toolChoice: toolChoice ?? config.toolChoice,
        signal: controller.signal,
        history,
        state: { ...session.state },
        emit: (event) => {
          channel.push(event);
          if (!event.partial) publishEvent(config.dbName, event);
        },
      };
      await runInvocation(inv, start);
    })
      .catch((error: unknown) => {
        const agentError = error instanceof AgentError ? error : new AgentError('model-failed', String(error));
        channel.push({
          id: crypto.randomUUID(),
          seq: 0,
          sessionId,
          invocationId,
          author: 'system',
          timestamp: Date.now(),
          error: agentError.toJSON(),
          endReason: agentError.code === 'aborted' ? 'aborted' : 'error',
        });
      })
      .finally(() => {
        this.runs.delete(runId);
        channel.close();
        if (this.ready) page.status('ready');
      });
    return transferStream(channel.readable);
  }

  private toolRunner(page: PageApi): ToolRunner {
    return {
      run: async (request, { signal, onChunk }) => {
        signal.addEventListener('abort', () => page.abortTool(request.callId), { once: true });
        if (onChunk) this.chunkSinks.set(request.callId, onChunk);
        try {
          return await page.callTool(request);
        } finally {
          this.chunkSinks.delete(request.callId);
        }
      },
      cancel: (callId) => page.abortTool(callId),
    };
  }
}

/**
 * A new message while calls still wait for approval moves on without them:
 * each undecided call is rejected and every call of that turn is answered, so
 * the history stays well formed and nothing runs behind the person's back.
 */
function supersede(open: NonNullable<ReturnType<typeof openApprovalRequest>>): EventDraft[] {
  const reason = 'the user sent a new message instead of deciding';
  const decisions: EventDraft[] = open.undecided.map((callId) => ({
    author: 'user',
    actions: { approval: { callId, granted: false, reason } },
  }));
  const responses: EventDraft = {
    author: open.modelEvent.author,
    content: {
      role: 'tool',
      parts: functionCalls(open.modelEvent).map((call) => ({
        functionResponse: { id: call.id, name: call.name, response: null, error: `Not run: ${reason}.` },
      })),
    },
  };
  return [...decisions, responses];
}

function agentsOf(config: HostConfig): Map<string, AgentSpec> {
  if (config.agents.length === 0)
    return new Map([[DEFAULT_AGENT_NAME, { name: DEFAULT_AGENT_NAME, instructions: config.instructions }]]);
  return new Map(
    config.agents.map((agent) => [
      agent.name,
      { ...agent, instructions: [config.instructions, agent.instructions].filter(Boolean).join('\n\n') },
    ]),
  );
}

function hooksOf(config: HostConfig, page: PageApi): FlowHooks {
  return {
    has: config.callbacks,
    callback: (payload) => page.callback(payload),
    needsApproval: (name, args) => page.needsApproval(name, args),
    approve: config.pageApproves ? (call) => page.approve(call) : undefined,
  };
}

function functionCalls(event: AgentEvent): FunctionCall[] {
  return (event.content?.parts ?? []).flatMap((part) => ('functionCall' in part ? [part.functionCall] : []));
}

function findCall(history: readonly AgentEvent[], callId: string): FunctionCall | undefined {
  for (const event of history) for (const call of functionCalls(event)) if (call.id === callId) return call;
  return undefined;
}

/** Streams move to the page instead of being copied (transferable streams). */
function transferStream(stream: ReadableStream<AgentEvent>): ReadableStream<AgentEvent> {
  return Comlink.transfer(stream, [stream as unknown as Transferable]);
}

function streamOf(event: AgentEvent): ReadableStream<AgentEvent> {
  const channel = eventChannel();
  channel.push(event);
  channel.close();
  return transferStream(channel.readable);
}
