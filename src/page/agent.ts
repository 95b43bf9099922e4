/**
 * The agent a page holds: runs, approvals, sessions, the toolkit and the
 * model, all answered by the worker; tools and callbacks answered here.
 * It restarts a worker that dies and carries on with the same session.
 */
import * as Comlink from 'comlink';
import { AgentError } from '../errors';
import type { AgentEvent } from '../session/event';
import { subscribeSession } from '../session/broadcast';
import { toDeclaration } from '../tools/to-declaration';
import { assertUniqueToolNames, type Tool } from '../tools/define-tool';
import type {
  AgentStats,
  AgentStatus,
  CallbackPayload,
  HostConfig,
  HostInfo,
  ImportProgress,
  PageApi,
  SessionView,
} from '../worker/protocol';
import type { SessionSummary } from '../session/store';
import type { ModelProgress } from '../model/engine';
import type { AgentOptions, RunOptions, RunResult } from './options';
import { runCallbacks } from './run-callbacks';
import { ToolHost } from './tool-host';
import {
  exposeToWebMCP,
  findModelContext,
  type ExposeToWebMCPOptions,
  type ModelContextLike,
  type WebMCPExposure,
} from './webmcp';
import { WorkerConnection } from './worker-connection';
import { TOOLKIT_METHODS, type ToolkitApi } from './toolkit-api';

export class Agent extends EventTarget {
  status: AgentStatus = 'starting';
  /** What the last status change said, e.g. why the worker crashed. (Whether tabs share a model: info.host.) */
  statusDetail?: string;
  /** Set when the agent started; the same across worker restarts. */
  sessionId = '';
  info?: HostInfo;
  readonly sessions: {
    list(): Promise<SessionSummary[]>;
    get(id: string): Promise<SessionView | undefined>;
    delete(id: string): Promise<void>;
    export(id: string): Promise<string>;
    import(jsonl: string, options?: { onProgress?: (progress: ImportProgress) => void }): Promise<string>;
    subscribe(id: string, onEvent: (event: AgentEvent) => void): () => void;
  };
  readonly toolkit: ToolkitApi;
  readonly model: { isCached(): Promise<boolean>; deleteCache(): Promise<void> };

  private connection!: WorkerConnection;
  private readonly toolHost = new ToolHost((request, outcome) => {
    void this.call((remote) => remote.recordLate(request, outcome)).catch(() => undefined);
  });
  private starting?: Promise<void>;
  private closed = false;
  /** Model steps this agent has seen recorded; a restarted scripted engine resumes after them. */
  private modelSteps = 0;

  constructor(
    private readonly options: AgentOptions,
    private readonly config: HostConfig,
  ) {
    super();
    for (const tool of options.tools ?? []) this.toolHost.tools.set(tool.name, tool);
    this.sessions = {
      list: () => this.call((remote) => remote.listSessions()),
      get: (id) => this.call((remote) => remote.getSession(id)),
      delete: (id) => this.call((remote) => remote.deleteSession(id)),
      export: (id) => this.call((remote) => remote.exportSession(id)),
      import: (jsonl, opts) =>
        this.call((remote) =>
          remote.importSession(jsonl, opts?.onProgress ? Comlink.proxy(opts.onProgress) : undefined),
        ),
      subscribe: (id, onEvent) => subscribeSession(this.config.dbName, id, onEvent),
    };
    this.toolkit = Object.fromEntries(
      TOOLKIT_METHODS.map((method) => [
        method,
        (...args: unknown[]) => this.call((remote) => remote.toolkitCall(method, args)),
      ]),
    ) as unknown as ToolkitApi;
    this.model = {
      isCached: () => this.call((remote) => remote.modelCall('isCached')) as Promise<boolean>,
      deleteCache: async () => {
        await this.call((remote) => remote.modelCall('deleteCache'));
      },
    };
  }

  /** Starts (or restarts) the worker and opens the session in it. */
  async start(): Promise<void> {
    this.starting = this.boot();
    await this.starting;
  }

  /** Streams the events of one run; the last carries `endReason`. */
  async *run(text: string, options: RunOptions = {}): AsyncGenerator<AgentEvent> {
    const runId = crypto.randomUUID();
    yield* this.stream(runId, options.signal, () =>
      this.call((remote) =>
        remote.run({ runId, text, ifBusy: options.ifBusy ?? 'wait', toolChoice: options.toolChoice }),
      ),
    );
  }

  /** Runs to the end and gives the final answer with every event. */
  send(text: string, options: RunOptions = {}): Promise<RunResult> {
    return collect(this.run(text, options));
  }

  /** Grants a call that waits for approval; continues the run once every call of its turn is decided. */
  approve(callId: string, options: RunOptions = {}): Promise<RunResult> {
    return this.decide(callId, true, undefined, options);
  }

  /** Rejects a call that waits for approval; the model reads the rejection as the tool's answer. */
  reject(callId: string, reason?: string, options: RunOptions = {}): Promise<RunResult> {
    return this.decide(callId, false, reason, options);
  }

  /** Answers a long-running call and continues the conversation. */
  resolveTool(callId: string, result: unknown, options: RunOptions = {}): Promise<RunResult> {
    const runId = crypto.randomUUID();
    return collect(
      this.stream(runId, options.signal, () => this.call((remote) => remote.resolveTool(runId, callId, result))),
    );
  }

  /** The calls that wait for approval now (also after a reload). */
  pendingApprovals() {
    return this.call((remote) => remote.pendingApprovals());
  }

  async registerTool(tool: Tool): Promise<void> {
    assertUniqueToolNames([...this.toolHost.tools.values(), tool]);
    const declaration = toDeclaration(tool);
    this.toolHost.tools.set(tool.name, tool);
    this.config.tools = [...this.config.tools, declaration];
    await this.call((remote) => remote.registerTools([declaration]));
  }

  async unregisterTool(name: string): Promise<void> {
    this.toolHost.tools.delete(name);
    this.config.tools = this.config.tools.filter((tool) => tool.name !== name);
    await this.call((remote) => remote.unregisterTool(name));
  }

  /** Offers this agent's page tools to the browser's WebMCP registry, where it has one. */
  exposeToWebMCP(modelContext?: ModelContextLike, options?: ExposeToWebMCPOptions): Promise<WebMCPExposure> {
    return exposeToWebMCP([...this.toolHost.tools.values()], modelContext ?? findModelContext(), options);
  }

  stats(): Promise<AgentStats> {
    return this.call((remote) => remote.stats());
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      await Promise.race([this.connection.remote.close(), new Promise((resolve) => setTimeout(resolve, 1000))]);
    } catch {
      // A dead worker has nothing left to close.
    }
    this.connection.terminate();
    this.releaseTabLock?.();
    this.setStatus('closed');
  }

  /** The worker, for tests and tools that need to reach it (e.g. to simulate a crash). */
  get worker(): Worker | undefined {
    return this.connection.worker;
  }

  /** Held while this agent lives, so that a shared worker notices when the tab is gone. */
  private readonly tabLock = `inpage-agent/tab/${crypto.randomUUID()}`;
  private releaseTabLock?: () => void;

  private async holdTabLock(): Promise<void> {
    if (this.releaseTabLock) return;
    await new Promise<void>((held) => {
      void navigator.locks.request(this.tabLock, () => {
        held();
        return new Promise<void>((release) => (this.releaseTabLock = release));
      });
    });
  }

  private async boot(): Promise<void> {
    await this.holdTabLock();
    this.connection = new WorkerConnection({
      workerUrl: this.options.workerUrl,
      sharedWorkerUrl: this.options.sharedWorkerUrl,
      share: this.options.share,
    });
    if (this.connection.notice) this.setStatus('starting', this.connection.notice);
    const connection = this.connection;
    connection.dead.catch((error: AgentError) => this.onDeath(connection, error));
    const base = { ...this.config, tabLock: this.tabLock };
    const config = this.sessionId ? { ...base, sessionId: this.sessionId, model: this.resumedModel() } : base;
    this.info = await connection.call((remote) => remote.init(config, Comlink.proxy(this.pageApi())));
    this.sessionId = this.info.sessionId;
  }

  /** After a restart, a scripted engine continues with the turns it has not played yet. */
  private resumedModel(): HostConfig['model'] {
    const { model } = this.config;
    return model.engine === 'scripted' ? { ...model, turns: model.turns.slice(this.modelSteps) } : model;
  }

  private onDeath(connection: WorkerConnection, error: AgentError): void {
    if (this.closed || connection !== this.connection || error.code !== 'worker-crashed') return;
    this.setStatus('crashed', error.message);
    if (this.options.restart === 'never') return;
    this.starting = this.boot();
    this.starting.catch(() => this.setStatus('crashed', 'The worker could not be restarted.'));
  }

  /** Calls the worker once it is up; rejects at once if it dies meanwhile. */
  private async call<T>(fn: (remote: WorkerConnection['remote']) => Promise<T>): Promise<T> {
    if (this.closed) throw new AgentError('closed', 'This agent was closed; create a new one with createAgent().');
    await this.starting;
    return this.connection.call(fn);
  }

  private async *stream(
    runId: string,
    signal: AbortSignal | undefined,
    open: () => Promise<ReadableStream<AgentEvent>>,
  ): AsyncGenerator<AgentEvent> {
    if (signal?.aborted) throw new AgentError('aborted', 'The run was aborted before it started.');
    const connection = (await this.starting, this.connection);
    const onAbort = () => void connection.remote.abort(runId);
    signal?.addEventListener('abort', onAbort, { once: true });
    let ended = false;
    try {
      const events = await open();
      for await (const event of connection.read(events)) {
        if (event.endReason && !event.partial) ended = true;
        this.notify(event);
        yield event;
      }
      ended = true;
    } finally {
      signal?.removeEventListener('abort', onAbort);
      // Leaving the loop early stops the run.
      if (!ended) onAbort();
    }
  }

  private async decide(
    callId: string,
    granted: boolean,
    reason: string | undefined,
    options: RunOptions,
  ): Promise<RunResult> {
    const runId = crypto.randomUUID();
    return collect(
      this.stream(runId, options.signal, () =>
        this.call((remote) => remote.decideApproval(runId, callId, granted, reason)),
      ),
    );
  }

  private notify(event: AgentEvent): void {
    if (!event.partial && event.content?.role === 'model') this.modelSteps += 1;
    const onEvent = this.options.callbacks?.onEvent;
    if (onEvent) void runCallbacks(onEvent, [event]).catch(() => undefined);
    this.dispatchEvent(new CustomEvent('event', { detail: event }));
  }

  private setStatus(status: AgentStatus, detail?: string): void {
    if (this.status === 'closed') return;
    this.status = status;
    this.statusDetail = detail;
    this.dispatchEvent(new CustomEvent('status', { detail: { status, detail } }));
  }

  private pageApi(): PageApi {
    const { options, toolHost } = this;
    return {
      callTool: (request) =>
        toolHost.callTool(request, (chunk) => void this.connection.remote.toolChunk(request.callId, chunk)),
      abortTool: (callId) => toolHost.abort(callId),
      needsApproval: async (name, args) => toolHost.needsApproval(name, args),
      approve: async (call) => (await options.onApproval?.(call)) === true,
      callback: (payload) => this.callback(payload),
      progress: (progress: ModelProgress) => {
        options.model.onProgress?.(progress);
        this.dispatchEvent(new CustomEvent('model-progress', { detail: progress }));
      },
      status: (status, detail) => this.setStatus(status, detail),
    };
  }

  private callback(payload: CallbackPayload): Promise<unknown> {
    const callbacks = this.options.callbacks ?? {};
    switch (payload.kind) {
      case 'beforeModel':
        return runCallbacks(callbacks.beforeModel, [payload.request, { agentName: payload.agentName }]);
      case 'afterModel':
        return runCallbacks(callbacks.afterModel, [payload.response, { agentName: payload.agentName }]);
      case 'beforeTool':
        return runCallbacks(callbacks.beforeTool, [{ name: payload.name, args: payload.args, callId: payload.callId }]);
      case 'afterTool': {
        const { kind: _kind, ...call } = payload;
        return runCallbacks(callbacks.afterTool, [call]);
      }
      case 'onEvent':
        return runCallbacks(callbacks.onEvent, [payload.event]);
    }
  }
}

/** Runs events to the end: the answer is the last model text, or a return-direct tool's output. */
async function collect(events: AsyncIterable<AgentEvent>): Promise<RunResult> {
  const stored: AgentEvent[] = [];
  let text = '';
  let last: AgentEvent | undefined;
  for await (const event of events) {
    if (event.partial) continue;
    stored.push(event);
    last = event;
    const parts = event.content?.parts ?? [];
    if (event.content?.role === 'model') {
      const said = parts.map((part) => ('text' in part ? part.text : '')).join('');
      if (said) text = said;
    }
    if (event.endReason === 'return-direct') {
      const responses = parts.flatMap((part) => ('functionResponse' in part ? [part.functionResponse.response] : []));
      const output = responses[responses.length - 1];
      text = typeof output === 'string' ? output : JSON.stringify(output);
    }
  }
  return { text, events: stored, endReason: last?.endReason, error: last?.error };
}

export function declarationsOf(tools: readonly Tool[]) {
  assertUniqueToolNames(tools);
  return tools.map(toDeclaration);
}
