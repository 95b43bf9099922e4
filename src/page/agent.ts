/**
 * The agent a page holds: a thin façade. Runs, approvals, sessions, the
 * toolkit and the model are answered by the worker (through supervisor.ts,
 * which keeps it alive); tools and callbacks are answered here (tool-host.ts,
 * page-api.ts).
 */
import * as Comlink from 'comlink';
import { AgentError } from '../errors';
import type { ModelDelta, ModelHandle, ModelRequest, WarmupResult } from '../model/engine';
import { newId, type AgentEvent, type ApprovalRequest } from '../session/event';
import { subscribeSession } from '../session/broadcast';
import type { AgentStats } from '../session/stats';
import type { SessionSummary } from '../session/store';
import type { ToolkitApi } from '../toolkit/toolkit-api';
import { asTool, type Tool } from '../tools/define-tool';
import type {
  AgentStatus,
  ContextUsage,
  HostInfo,
  ImportProgress,
  RunCommand,
  SessionView,
} from '../contract/protocol';
import { checkMessageText } from '../contract/message-text';
import { checkSessionId } from './options-schema';
import { afterCrash } from './resend-after-crash';
import { collectRun } from './collect-run';
import { closedDuringDecision } from './decision-outcome';
import type { AgentOptions, RunOptions, RunResult } from './options';
import type { AgentSettings } from './supervisor';
import { modelDeltas } from './model-deltas';
import { pageApi } from './page-api';
import { remoteService } from './remote-proxy';
import { serviceOf } from './worker-services';
import type { WorkerConnection } from './worker-connection';
import { runCallbacks } from './run-callbacks';
import { closedError, Supervisor } from './supervisor';
import { ToolHost } from './tool-host';
import {
  exposeToWebMCP,
  findModelContext,
  type ExposeToWebMCPOptions,
  type ModelContextLike,
  type WebMCPExposure,
} from './webmcp';

/** A message this page sent, remembered until it is known to be stored. */
interface SentMessage {
  id: string;
  text: string;
  options: RunOptions;
  /** Sent again after a crash: never a third time. */
  resent?: boolean;
}

export class Agent extends EventTarget {
  status: AgentStatus = 'starting';
  /** What the last status change said, e.g. why the worker crashed. */
  statusDetail?: string;
  readonly sessions: {
    list(): Promise<SessionSummary[]>;
    get(id: string): Promise<SessionView | undefined>;
    delete(id: string): Promise<void>;
    export(id: string): Promise<string>;
    import(jsonl: string, options?: { onProgress?: (progress: ImportProgress) => void }): Promise<string>;
    subscribe(id: string, onEvent: (event: AgentEvent) => void): () => void;
  };
  /** The toolkit graph, held by the worker; every method returns a promise. */
  readonly toolkit: Comlink.Remote<ToolkitApi>;
  readonly model: Comlink.Remote<ModelHandle>;

  private readonly supervisor: Supervisor;
  /** The worker's services, each reached through the worker of the moment (remote-proxy.ts). */
  private readonly remote: {
    sessions: ReturnType<typeof remoteSessions>;
    tools: ReturnType<typeof remoteTools>;
    model: ReturnType<typeof remoteModel>;
  };
  /** Runs whose events this page is reading now. */
  private runs = 0;
  private readonly toolHost = new ToolHost((request, outcome) => {
    void this.remote.tools.recordLate(request, outcome).catch(() => undefined);
  });

  constructor(
    private readonly options: AgentOptions,
    private readonly config: AgentSettings,
  ) {
    super();
    for (const tool of options.tools ?? []) this.toolHost.register(tool);
    this.supervisor = new Supervisor(
      options,
      config,
      () => this.toolHost.declared(),
      () =>
        pageApi({
          options,
          toolHost: this.toolHost,
          // On the host's own channel, open from the start: a service opened now would deliver the first
          // chunks after the call's own reply, when the worker no longer listens for them.
          sendChunk: (callId, chunk) =>
            void this.supervisor.call((remote) => remote.toolChunk(callId, chunk)).catch(() => undefined),
          onProgress: (progress) => this.dispatchEvent(new CustomEvent('model-progress', { detail: progress })),
          onStatus: (status, detail) => this.setStatus(status, detail),
        }),
      (status, detail) => this.setStatus(status, detail),
      // The model has loaded (at the start, or again after a restart): its prompt's constant part is read ahead.
      () => this.autoWarmup(),
    );
    this.remote = {
      sessions: remoteSessions(this.supervisor),
      tools: remoteTools(this.supervisor),
      model: remoteModel(this.supervisor),
    };
    const sessions = this.remote.sessions;
    this.sessions = {
      list: () => sessions.list(),
      get: (id) => sessions.get(id),
      delete: (id) => sessions.delete(id),
      export: (id) => sessions.export(id),
      import: (jsonl, opts) => sessions.import(jsonl, opts?.onProgress ? Comlink.proxy(opts.onProgress) : undefined),
      subscribe: (id, onEvent) => subscribeSession(this.config.dbName, id, onEvent),
    };
    this.toolkit = remoteService(() => serviceOf(this.supervisor, 'toolkit'));
    this.model = this.remote.model;
  }

  /** Set when the agent started; the same across worker restarts. */
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
    return this.runMessage({ id: newId('msg'), text, options });
  }

  /** Runs to the end and gives the final answer with every event. */
  send(text: string, options: RunOptions = {}): Promise<RunResult> {
    return collectRun(this.run(text, options));
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
    const command = { kind: 'resolution', ...runControl(options), callId, result } as const;
    return collectRun(this.stream(command, options.signal));
  }

  /**
   * Goes on with the session's last run if a reload or a crash cut it off: its
   * next model step reads the history as stored (calls left open answered
   * 'interrupted', never run again). Yields nothing when that run had ended.
   */
  resume(options: RunOptions = {}): AsyncGenerator<AgentEvent> {
    return this.stream({ kind: 'resume', ...runControl(options) }, options.signal);
  }

  /**
   * One step of the agent's model, outside the loop and the session: the
   * family's format and grammar and the engine's KV cache, nothing recorded,
   * no tool run (the deltas say what the model called). It takes its turn with
   * the agent's runs. inpage-agent/ai-sdk's inpageModel runs on it.
   */
  async *generate(request: ModelRequest, options: { signal?: AbortSignal } = {}): AsyncGenerator<ModelDelta> {
    yield* modelDeltas(await this.supervisor.current(), request, options.signal);
  }

  /**
   * Reads ahead the part of the model's prompt that does not depend on the visitor's next words: the
   * instructions, the tools as the model's own chat template writes them (those the session's next run
   * will describe), a base model's worked example, and the session's conversation so far. A message sent
   * meanwhile waits for it, and its first step prefills only the message itself. Resolves once the prefix
   * is read, with llama.cpp's counts (read now, found in the cache); at once, with status 'unsupported',
   * for an engine that cannot keep a prompt read ahead (web-llm, scripted, an engine module). `signal`
   * stops it (the promise rejects with 'aborted'), and so does close(). Each result is also dispatched as a
   * 'warmup' event. createAgent({ warmup: true }) calls this after the model loads and after openSession().
   */
  async warmup(options: { signal?: AbortSignal } = {}): Promise<WarmupResult> {
    const { signal } = options;
    if (signal?.aborted) throw warmupAborted();
    const connection = await this.supervisor.current();
    if (signal?.aborted) throw warmupAborted();
    const runId = crypto.randomUUID();
    let stop = () => undefined as void;
    // Rejected at once on abort: llama.cpp stops after the piece it is reading, which this need not wait for.
    const stopped = new Promise<never>((_, reject) => {
      stop = () => {
        reject(warmupAborted());
        void abortIn(connection, runId);
      };
      signal?.addEventListener('abort', stop, { once: true });
    });
    stopped.catch(() => undefined);
    try {
      const model = serviceOf(connection, 'model');
      const result = await Promise.race([model.then((service) => service.warmup({ runId })), stopped]);
      this.dispatchEvent(new CustomEvent('warmup', { detail: result }));
      return result;
    } catch (error) {
      if (this.supervisor.isClosed) throw closedError();
      throw error;
    } finally {
      signal?.removeEventListener('abort', stop);
    }
  }

  /**
   * Opens the session `sessionId` (a new one when absent, or when the store has none by that id) in
   * place of this agent's session, and resolves with its id. The worker and the model stay loaded: no
   * second download or load, and with createAgent({ warmup: true }) the prompt's constant part is read
   * ahead again for it. Runs under way go on in the session they started in.
   */
  async openSession(sessionId?: string): Promise<string> {
    if (sessionId !== undefined) checkSessionId(sessionId, 'openSession');
    const info = await this.remote.sessions.open(sessionId);
    this.supervisor.opened(info.sessionId);
    this.autoWarmup();
    return info.sessionId;
  }

  /** The calls that wait for approval now (also after a reload), with their arguments as the tools' schemas parse them. */
  pendingApprovals(): Promise<ApprovalRequest[]> {
    return this.remote.sessions.pendingApprovals();
  }

  async registerTool(given: Tool): Promise<void> {
    const declaration = this.toolHost.register(asTool(given, 'registerTool'));
    await this.remote.tools.register([declaration]);
  }

  async unregisterTool(name: string): Promise<void> {
    this.toolHost.unregister(name);
    await this.remote.tools.unregister(name);
  }

  /** Offers this agent's page tools to the browser's WebMCP registry, where it has one. */
  exposeToWebMCP(modelContext?: ModelContextLike, options?: ExposeToWebMCPOptions): Promise<WebMCPExposure> {
    return exposeToWebMCP([...this.toolHost.tools.values()], modelContext ?? findModelContext(), options);
  }

  stats(): Promise<AgentStats> {
    return this.remote.sessions.stats();
  }

  /**
   * How the next step would spend the model's context window, in tokens (after
   * Chrome's Prompt API measureContextUsage): { window, instructions, tools,
   * history, free }. Counted with the model's own tokenizer once it is loaded,
   * with an estimate before.
   */
  contextUsage(): Promise<ContextUsage> {
    return this.remote.model.contextUsage();
  }

  async close(): Promise<void> {
    if (this.supervisor.isClosed) return;
    await this.supervisor.close();
    this.setStatus('closed');
  }

  /**
   * A decision's run. If the agent closes meanwhile, the rejection says
   * whether the decision was stored and whether the tool ran (decision-outcome.ts).
   */
  private async decide(callId: string, granted: boolean, reason: string | undefined, options: RunOptions) {
    const seen = { sawDecision: false, toolStarted: false };
    this.toolHost.onStart.set(callId, () => (seen.toolStarted = true));
    const command = { kind: 'decision', ...runControl(options), callId, granted, reason } as const;
    const events = this.stream(command, options.signal);
    try {
      return await collectRun(
        (async function* () {
          for await (const event of events) {
            if (event.actions?.approval?.callId === callId) seen.sawDecision = true;
            yield event;
          }
        })(),
      );
    } catch (error) {
      if (!(error instanceof AgentError) || error.code !== 'closed') throw error;
      throw await closedDuringDecision(
        {
          callId,
          granted,
          ...seen,
          storage: this.supervisor.info?.storage,
          dbName: this.config.dbName,
          sessionId: this.sessionId,
        },
        error,
      ).catch(() => error);
    } finally {
      this.toolHost.onStart.delete(callId);
    }
  }

  /**
   * A message's run. If the worker dies before the message is known to be
   * stored, the rejection says whether it was; after the restart the agent
   * sends an unstored message once more (by its id, so never twice).
   */
  private async *runMessage(message: SentMessage): AsyncGenerator<AgentEvent> {
    // Here, where the page made the mistake: across the boundary it would be a DataCloneError.
    checkMessageText(message.text);
    const { options } = message;
    const command: RunCommand = {
      kind: 'message',
      ...runControl(options),
      text: message.text,
      messageId: message.id,
      toolChoice: options.toolChoice,
    };
    let stored = false;
    try {
      for await (const event of this.stream(command, options.signal)) {
        if (event.id === message.id && !event.partial) stored = true;
        yield event;
      }
    } catch (error) {
      if (error instanceof AgentError && error.code === 'worker-crashed')
        throw await this.afterCrash(message, stored, error);
      throw error;
    }
  }

  /** What the crash error says about the message, and the message sent again where resend-after-crash.ts says so. */
  private async afterCrash(message: SentMessage, seen: boolean, error: AgentError): Promise<AgentError> {
    const verdict = await afterCrash(
      { id: message.id, seenStored: seen, resent: message.resent === true },
      {
        restarted: () => this.supervisor.restarted(),
        hasEvent: (id) => this.remote.sessions.hasEvent(id),
      },
    );
    if (verdict.resend)
      void collectRun(
        this.runMessage({ ...message, resent: true, options: { ...message.options, signal: undefined } }),
      ).catch(() => undefined);
    return new AgentError(error.code, `${error.message}${verdict.said}`, {
      cause: error,
      details: { ...(error.details as object), messageStored: verdict.messageStored, messageId: message.id },
    });
  }

  private async *stream(command: RunCommand, signal: AbortSignal | undefined): AsyncGenerator<AgentEvent> {
    if (signal?.aborted) throw new AgentError('aborted', 'The run was aborted before it started.');
    const connection = await this.supervisor.current();
    // An abort while the worker was awaited has no run to stop yet: the run never starts (it was lost here before).
    if (signal?.aborted) throw new AgentError('aborted', 'The run was aborted before it started.');
    const onAbort = () => void abortIn(connection, command.runId);
    signal?.addEventListener('abort', onAbort, { once: true });
    let ended = false;
    // The page knows its runs: 'running' from the first until the last ends, without a hop to the worker.
    if (this.runs++ === 0) this.setStatus('running');
    try {
      const events = await (await serviceOf(connection, 'runs')).start(command);
      for await (const event of connection.read(events)) {
        if (event.endReason && !event.partial) ended = true;
        this.notify(event);
        yield event;
      }
      ended = true;
    } catch (error) {
      if (this.supervisor.isClosed) throw closedError();
      throw error;
    } finally {
      signal?.removeEventListener('abort', onAbort);
      // Leaving the loop early stops the run.
      if (!ended) onAbort();
      if (--this.runs === 0 && this.status === 'running') this.setStatus('ready');
    }
    if (this.supervisor.isClosed) throw closedError();
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

/** A run's id (the page's, so that it can stop it) and what it does when the session is busy. */
function runControl(options: RunOptions) {
  return { runId: crypto.randomUUID(), ifBusy: options.ifBusy ?? 'wait' } as const;
}

/** Stops a run or a warmup of this connection's worker; a worker that is gone has nothing to stop. */
async function abortIn(connection: WorkerConnection, runId: string): Promise<void> {
  try {
    await (await serviceOf(connection, 'runs')).abort(runId);
  } catch {
    // Gone, or closed: nothing of it runs.
  }
}

const remoteSessions = (supervisor: Supervisor) => remoteService(() => serviceOf(supervisor, 'sessions'));
const remoteTools = (supervisor: Supervisor) => remoteService(() => serviceOf(supervisor, 'tools'));
const remoteModel = (supervisor: Supervisor) => remoteService(() => serviceOf(supervisor, 'model'));

function warmupAborted(): AgentError {
  return new AgentError('aborted', 'The warmup was aborted: the prompt was not read ahead (or only in part).');
}
