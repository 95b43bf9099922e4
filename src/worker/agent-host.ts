/**
 * The worker's side of an agent: wires the stores, the engine, the toolkit
 * and the page's hooks into the loop's context, and answers the page through
 * comlink (see protocol.ts). What a run does is the flow's (src/flow); this
 * file only connects and exposes.
 */
import * as Comlink from 'comlink';
import { AgentError } from '../errors';
import type { AgentEvent } from '../session/event';
import type { ToolOutcome } from '../tools/invoke-tool';
import type { SessionStore } from '../session/store';
import { openSessionStore } from '../session/open-store';
import { publishEvent } from '../session/broadcast';
import { readRecent, recentEvents } from '../session/recent-events';
import { exportSession, importSession } from '../session/jsonl';
import { sessionStats } from '../session/stats';
import type { ToolDeclaration } from '../tools/declaration';
import { checkDeclaration } from '../tools/check-declaration';
import { pendingApprovals } from '../session/open-approval';
import { nextStepUsage } from '../flow/context-usage';
import { checkMessageText } from '../contract/message-text';
import { decisionStart } from '../flow/decision-start';
import { messageStart } from '../flow/message-start';
import { continuationStart } from '../flow/continuation-start';
import { resolutionStart } from '../flow/resolution-start';
import { openSession } from '../flow/open-session';
import { recordLate } from '../flow/record-late';
import { startRun } from '../flow/start-run';
import type { AgentContext, RunStart } from '../flow/types';
import type { ModelDelta, ModelEngine, ModelRequest, WarmupResult } from '../model/engine';
import { readAheadUnsupported } from '../model/read-ahead-unsupported';
import { readAheadRequest } from '../flow/read-ahead-request';
import type { Session } from '../session/store';
import { agentContext } from './agent-context';
import { deltaStream } from './delta-stream';
import { EnginePool } from './engine-pool';
import { eventChannel } from './event-channel';
import { holdLifeline } from '../contract/lifeline';
import type {
  AgentHostApi,
  DecisionInput,
  EventPort,
  HostConfig,
  HostInfo,
  ImportProgress,
  PageApi,
  ResolutionInput,
  ResumeInput,
  RunInput,
  SessionView,
  ToolCallRequest,
  WarmupInput,
} from '../contract/protocol';
import { bindToolkit, type ToolkitBinding } from './toolkit-binding';

interface Ready {
  config: HostConfig;
  page: PageApi;
  store: SessionStore;
  /** The open session's: replaced by openSession(). */
  context: AgentContext;
  releaseEngine(): Promise<void>;
  /** Runs work with the engine itself in its next turn, taken at once (engine-pool.ts). */
  inTurn<T>(work: (engine: ModelEngine) => Promise<T>, signal?: AbortSignal): Promise<T>;
  info: HostInfo;
  toolkit: ToolkitBinding;
}

export class AgentHost implements AgentHostApi {
  private ready?: Ready;
  private readonly tools = new Map<string, ToolDeclaration>();
  private readonly runs = new Map<string, AbortController>();
  /** Warmups under way, by the page's id: abort() and close() stop them as they stop runs. */
  private readonly warmups = new Map<string, AbortController>();
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
    const opened = (config.sessionId ? await readRecent(store, config.sessionId) : undefined) ?? {
      session: await store.create({ id: config.sessionId, appName: config.appName, userId: config.userId }),
      events: [],
    };
    const { session } = opened;
    for (const tool of config.tools) this.tools.set(tool.name, checkDeclaration(tool));

    page.status('loading-model');
    const { engine, release, reused, inTurn } = await this.engines.acquire(
      config.model,
      (progress) => void page.progress(progress),
    );
    const toolkit = await bindToolkit(config, store);
    const context = this.contextFor({ config, page, store, engine, toolkit }, session.id);
    await openSession(context, opened, {
      storageNotice: notice,
      emit: (event) => publishEvent(config.dbName, event),
    });
    const info: HostInfo = {
      sessionId: session.id,
      model: engine.info,
      storage: store.kind,
      storageNotice: notice,
      modelShared: reused,
      host: 'SharedWorkerGlobalScope' in self ? 'shared-worker' : 'worker',
    };
    this.ready = { config, page, store, context, releaseEngine: release, inTurn, info, toolkit };
    page.status('ready');
    // In a SharedWorker, a closed tab never says goodbye: its lock's release does.
    if (config.tabLock) void navigator.locks?.request(config.tabLock, () => this.close()).catch(() => undefined);
    return info;
  }

  run(input: RunInput): Promise<EventPort> {
    checkMessageText(input.text);
    return this.stream(
      input,
      (_session, history) => messageStart(history, input.text, input.messageId),
      input.toolChoice,
    );
  }

  decide(input: DecisionInput): Promise<EventPort> {
    const { sessionId } = this.need().context;
    return this.stream(input, (_session, history) => decisionStart(history, sessionId, input));
  }

  resolveTool(input: ResolutionInput): Promise<EventPort> {
    return this.stream(input, (session, history) => resolutionStart(session, history, input.callId, input.result));
  }

  resume(input: ResumeInput): Promise<EventPort> {
    return this.stream(input, (_session, history) => continuationStart(history));
  }

  async generate(request: ModelRequest): Promise<ReadableStream<ModelDelta>> {
    const stream = deltaStream(this.need().context.engine, request);
    return Comlink.transfer(stream, [stream as unknown as Transferable]);
  }

  warmup(input: WarmupInput): Promise<WarmupResult> {
    const ready = this.need();
    const t0 = performance.now();
    const { engine } = ready.context;
    if (!engine.readAhead) return Promise.resolve(readAheadUnsupported(engine.info));
    // A run under way reads its own prompt, step after step: read ahead now, the warmup would come between its steps.
    if (this.runs.size > 0)
      return Promise.resolve({
        ...readAheadUnsupported(engine.info),
        status: 'skipped',
        reason: 'A run was under way: its own steps keep the model’s cache, and nothing was read ahead.',
      });
    const controller = new AbortController();
    this.warmups.set(input.runId, controller);
    // The engine's turn is taken now, so a message sent after this waits for it; the request is built in that turn,
    // from the session as it is then (the one open then, after openSession()).
    return ready
      .inTurn(async (own) => {
        const { store, context } = this.need();
        const request = await readAheadRequest(context, await recentEvents(store, context.sessionId));
        const result = await own.readAhead!(request, controller.signal);
        return { ...result, ms: performance.now() - t0 };
      }, controller.signal)
      .finally(() => this.warmups.delete(input.runId));
  }

  async openSession(sessionId?: string): Promise<HostInfo> {
    const ready = this.need();
    const { store, config } = ready;
    const opened = (sessionId ? await readRecent(store, sessionId) : undefined) ?? {
      session: await store.create({ id: sessionId, appName: config.appName, userId: config.userId }),
      events: [],
    };
    const context = this.contextFor({ ...ready, engine: ready.context.engine }, opened.session.id);
    await openSession(context, opened, { emit: (event) => publishEvent(config.dbName, event) });
    if (this.ready !== ready) throw new AgentError('closed', 'This agent was closed while it opened the session.');
    ready.context = context;
    ready.info = { ...ready.info, sessionId: opened.session.id };
    return ready.info;
  }

  abort(runId: string): void {
    this.runs.get(runId)?.abort();
    this.warmups.get(runId)?.abort();
  }

  async hasEvent(id: string): Promise<boolean> {
    const { store, context } = this.need();
    return (await recentEvents(store, context.sessionId)).some((event) => event.id === id);
  }

  async pendingApprovals() {
    const { store, context } = this.need();
    return pendingApprovals(await recentEvents(store, context.sessionId));
  }

  recordLate(request: ToolCallRequest, outcome: ToolOutcome): Promise<void> {
    const { context, config } = this.need();
    return recordLate({ ...context, emit: (event) => publishEvent(config.dbName, event) }, request, outcome);
  }

  toolChunk(callId: string, chunk: unknown): void {
    this.chunkSinks.get(callId)?.(chunk);
  }

  async registerTools(tools: ToolDeclaration[]): Promise<void> {
    for (const tool of tools) checkDeclaration(tool);
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

  toolkit() {
    return Comlink.proxy(this.need().toolkit.toolkit);
  }

  model() {
    const { engine } = this.need().context;
    return Comlink.proxy({
      isCached: async () => (await engine.isCached?.()) ?? false,
      deleteCache: async () => {
        await engine.deleteCache?.();
      },
    });
  }

  async stats() {
    const { store, context } = this.need();
    return sessionStats(context.sessionId, await store.events(context.sessionId));
  }

  async contextUsage() {
    const { store, context } = this.need();
    return nextStepUsage(context, await recentEvents(store, context.sessionId));
  }

  async close(): Promise<void> {
    for (const controller of [...this.runs.values(), ...this.warmups.values()]) controller.abort();
    const ready = this.ready;
    this.ready = undefined;
    if (!ready) return;
    await ready.releaseEngine();
    ready.toolkit.close();
    ready.store.close();
    ready.page.status('closed');
  }

  /** The loop's context for one session of this agent. */
  private contextFor(
    parts: Pick<Ready, 'config' | 'page' | 'store' | 'toolkit'> & { engine: ModelEngine },
    sessionId: string,
  ): AgentContext {
    return agentContext({
      config: parts.config,
      sessionId,
      store: parts.store,
      engine: parts.engine,
      tools: this.tools,
      page: parts.page,
      selector: parts.toolkit.selector,
      chunkSinks: this.chunkSinks,
    });
  }

  private need(): Ready {
    if (!this.ready)
      throw new AgentError('closed', 'This agent is not started or was closed; create a new one with createAgent().');
    return this.ready;
  }

  /** Runs one invocation under the session's lock, streaming its events to the page. */
  private async stream(
    input: { runId: string; ifBusy: 'wait' | 'fail' },
    prepare: (session: Session, history: readonly AgentEvent[]) => RunStart,
    toolChoice?: RunInput['toolChoice'],
  ): Promise<EventPort> {
    const { context, config } = this.need();
    const controller = new AbortController();
    this.runs.set(input.runId, controller);
    const channel = eventChannel();
    const { accepted, done } = startRun(context, prepare, {
      ifBusy: input.ifBusy,
      signal: controller.signal,
      toolChoice,
      emit: (event) => {
        channel.push(event);
        if (!event.partial) publishEvent(config.dbName, event);
      },
    });
    void done
      .catch(() => undefined)
      .finally(() => {
        this.runs.delete(input.runId);
        channel.close();
      });
    await accepted;
    return Comlink.transfer(channel.port, [channel.port]);
  }
}
