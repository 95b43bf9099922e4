/**
 * The agent a page holds: a thin façade, along the worker's services. Runs
 * (run-stream.ts, message-run.ts, decision-run.ts), sessions
 * (agent-sessions.ts), the toolkit and the model are answered by the worker
 * (through supervisor.ts, which keeps it alive); tools and callbacks are
 * answered here (agent-tools.ts, page-api.ts).
 */
import type * as Comlink from 'comlink';
import type { ModelDelta, ModelHandle, ModelRequest, WarmupResult } from '../model/engine';
import { newId, type AgentEvent, type ApprovalRequest } from '../session/event';
import type { AgentStats } from '../session/stats';
import type { ToolkitApi } from '../toolkit/toolkit-api';
import type { ToolDeclaration } from '../tools/declaration';
import type { Tool } from '../tools/define-tool';
import type { AgentStatus, ContextUsage, HostInfo, ModelApi, SessionsApi } from '../contract/protocol';
import { agentSessions, openSession, type AgentSessions } from './agent-sessions';
import { AgentTools } from './agent-tools';
import { collectRun } from './collect-run';
import { decisionRun, type DecisionRoute } from './decision-run';
import { messageRun, type MessageRoute } from './message-run';
import type { AgentOptions, RunOptions, RunResult } from './options';
import type { AgentSettings } from './supervisor';
import { modelDeltas } from './model-deltas';
import { pageApi } from './page-api';
import { remoteService } from './remote-proxy';
import { runControl, RunStreams } from './run-stream';
import { runCallbacks } from './run-callbacks';
import { Supervisor } from './supervisor';
import { warmupIn } from './warmup';
import type { ExposeToWebMCPOptions, ModelContextLike, WebMCPExposure } from './webmcp';

export class Agent extends EventTarget {
  status: AgentStatus = 'starting';
  /** What the last status change said, e.g. why the worker crashed. */
  statusDetail?: string;
  readonly sessions: AgentSessions;
  /** The toolkit graph, held by the worker; every method returns a promise. */
  readonly toolkit: Comlink.Remote<ToolkitApi>;
  readonly model: Comlink.Remote<ModelHandle>;

  private readonly supervisor: Supervisor;
  /** The worker's services, each reached through the worker of the moment (remote-proxy.ts). */
  private readonly remoteSessions: Comlink.Remote<SessionsApi>;
  private readonly remoteModel: Comlink.Remote<ModelApi>;
  private readonly tools: AgentTools;
  private readonly streams: RunStreams;

  constructor(
    private readonly options: AgentOptions,
    private readonly config: AgentSettings,
  ) {
    super();
    // Every call to the worker goes through the supervisor's send: in the order made, to the worker of the moment.
    const worker: Pick<Supervisor, 'send'> = { send: (fn) => this.supervisor.send(fn) };
    this.tools = new AgentTools(options.tools ?? [], remoteService(worker, 'tools'));
    this.supervisor = new Supervisor(
      options,
      config,
      () => this.tools.declared(),
      () =>
        pageApi({
          options,
          toolHost: this.tools.host,
          sendChunk: (callId, chunk) =>
            void this.supervisor
              .send((connection) => connection.service('tools').chunk(callId, chunk))
              .catch(() => undefined),
          onProgress: (progress) => this.dispatchEvent(new CustomEvent('model-progress', { detail: progress })),
          onStatus: (status, detail) => this.setStatus(status, detail),
        }),
      (status, detail) => this.setStatus(status, detail),
      // The model has loaded (at the start, or again after a restart): its prompt's constant part is read ahead.
      () => this.autoWarmup(),
    );
    this.streams = new RunStreams(this.supervisor, {
      notify: (event) => this.notify(event),
      status: () => this.status,
      setStatus: (status) => this.setStatus(status),
    });
    this.remoteSessions = remoteService(worker, 'sessions');
    this.sessions = agentSessions(this.remoteSessions, config.dbName);
    this.toolkit = remoteService(worker, 'toolkit');
    this.remoteModel = remoteService(worker, 'model');
    this.model = this.remoteModel;
  }

  get sessionId(): string {
    return this.supervisor.sessionId;
  }

  get info(): HostInfo | undefined {
    return this.supervisor.info;
  }

  /** Starts the worker and opens the session in it (createAgent does this). */
  start(): Promise<void> {
    return this.supervisor.start();
  }

  /** Streams the events of one run; the last carries `endReason`. */
  run(text: string, options: RunOptions = {}): AsyncGenerator<AgentEvent> {
    return messageRun({ id: newId('msg'), text, options }, this.route());
  }

  /** Runs to the end and gives the final answer with every event. */
  send(text: string, options: RunOptions = {}): Promise<RunResult> {
    return collectRun(this.run(text, options));
  }

  /** Grants a call that waits for approval; continues the run once every call of its turn is decided. */
  approve(callId: string, options: RunOptions = {}): Promise<RunResult> {
    return decisionRun({ callId, granted: true, reason: undefined }, options, this.route());
  }

  /** Rejects a call that waits for approval; the model reads the rejection as the tool's answer. */
  reject(callId: string, reason?: string, options: RunOptions = {}): Promise<RunResult> {
    return decisionRun({ callId, granted: false, reason }, options, this.route());
  }

  /** Answers a long-running call and continues the conversation. */
  resolveTool(callId: string, result: unknown, options: RunOptions = {}): Promise<RunResult> {
    const command = { kind: 'resolution', ...runControl(options), callId, result } as const;
    return collectRun(this.streams.stream(command, options.signal));
  }

  /**
   * Goes on with the session's last run if a reload or a crash cut it off: its
   * next model step reads the history as stored (calls left open answered
   * 'interrupted', never run again). Yields nothing when that run had ended.
   */
  resume(options: RunOptions = {}): AsyncGenerator<AgentEvent> {
    return this.streams.stream({ kind: 'resume', ...runControl(options) }, options.signal);
  }

  /**
   * One step of the agent's model, outside the loop and the session: the
   * family's format and grammar and the engine's KV cache, nothing recorded,
   * no tool run (the deltas say what the model called). It takes its turn with
   * the agent's runs. inpage-agent/ai-sdk's inpageModel runs on it.
   */
  async *generate(request: ModelRequest, options: { signal?: AbortSignal } = {}): AsyncGenerator<ModelDelta> {
    yield* modelDeltas(this.supervisor, request, options.signal);
  }

  /**
   * Reads ahead the part of the model's prompt that does not depend on the visitor's next words: the
   * instructions, the tools as the model's own chat template writes them (those the session's next run
   * will describe), a base model's worked example, and the session's conversation so far. A message sent
   * meanwhile waits for it, and its first step prefills only the message itself. Resolves once the prefix
   * is read, with llama.cpp's counts (read now, found in the cache); at once, with status 'unsupported',
   * for an engine that cannot keep a prompt read ahead (web-llm, scripted, an engine module). `signal`
   * stops it (the promise rejects with 'aborted'), and so does close(). Each result is also dispatched as a
   * 'warmup' event, and how far it has read as 'warmup-progress' events (`{ read, of }`, tokens; llama.cpp).
   * createAgent({ warmup: true }) calls this after the model loads and after openSession().
   */
  warmup(options: { signal?: AbortSignal } = {}): Promise<WarmupResult> {
    this.warmups++;
    return warmupIn(this.supervisor, options.signal, {
      result: (result) => this.dispatchEvent(new CustomEvent('warmup', { detail: result })),
      read: (progress) => this.dispatchEvent(new CustomEvent('warmup-progress', { detail: progress })),
    }).finally(() => this.warmups--);
  }

  /** Whether the agent is reading its prompt's constant part ahead now (warmup()): a message sent meanwhile waits for it. */
  get readingAhead(): boolean {
    return this.warmups > 0;
  }

  private warmups = 0;

  /**
   * Opens the session `sessionId` (a new one when absent, or when the store has none by that id) in
   * place of this agent's session, and resolves with its id. The worker and the model stay loaded: no
   * second download or load, and with createAgent({ warmup: true }) the prompt's constant part is read
   * ahead again for it. Runs under way go on in the session they started in.
   */
  async openSession(sessionId?: string): Promise<string> {
    // Sent now: a run started before this resolves (openSession not awaited) is sent after it, and runs in it.
    const opened = await openSession(this.supervisor, this.remoteSessions, sessionId);
    this.autoWarmup();
    return opened;
  }

  /** The calls that wait for approval now (also after a reload), with their arguments as the tools' schemas parse them. */
  pendingApprovals(): Promise<ApprovalRequest[]> {
    return this.remoteSessions.pendingApprovals();
  }

  registerTool(given: Tool): Promise<void> {
    return this.tools.register(given);
  }

  unregisterTool(name: string): Promise<void> {
    return this.tools.unregister(name);
  }

  /** The page tools this agent has now, as the worker and the model know them (a UI shows their displayName). */
  declaredTools(): ToolDeclaration[] {
    return this.tools.declared();
  }

  /** Offers this agent's page tools to the browser's WebMCP registry, where it has one. */
  exposeToWebMCP(modelContext?: ModelContextLike, options?: ExposeToWebMCPOptions): Promise<WebMCPExposure> {
    return this.tools.exposeToWebMCP(modelContext, options);
  }

  stats(): Promise<AgentStats> {
    return this.remoteSessions.stats();
  }

  /**
   * How the next step would spend the model's context window, in tokens (after
   * Chrome's Prompt API measureContextUsage): { window, instructions, tools,
   * history, free }. Counted with the model's own tokenizer once it is loaded,
   * with an estimate before.
   */
  contextUsage(): Promise<ContextUsage> {
    return this.remoteModel.contextUsage();
  }

  async close(): Promise<void> {
    if (this.supervisor.isClosed) return;
    await this.supervisor.close();
    this.setStatus('closed');
  }

  /** What a message's or a decision's run goes through (message-run.ts, decision-run.ts). */
  private route(): MessageRoute & DecisionRoute {
    const { streams, supervisor, remoteSessions: sessions } = this;
    return { streams, supervisor, sessions, toolHost: this.tools.host, dbName: this.config.dbName };
  }

  /** createAgent({ warmup: true }): a warmup in the background; what it did comes as a 'warmup' event. */
  private autoWarmup(): void {
    if (this.options.warmup) void this.warmup().catch(() => undefined);
  }

  private notify(event: AgentEvent): void {
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
}
