/**
 * Keeps an agent's worker alive: starts it, opens the session in it, and when
 * it dies (terminated, out of memory, crashed) starts another on the same
 * session, unless createAgent({ restart: 'never' }). Every call to the worker
 * goes through here, so a closed agent and a dead worker both answer with an
 * AgentError, never with comlink's "Proxy has been released".
 */
import * as Comlink from 'comlink';
import { AgentError } from '../errors';
import type { AgentStatus, HostConfig, HostInfo, PageApi } from '../contract/protocol';
import type { ToolDeclaration } from '../tools/declaration';
import type { AgentOptions } from './options';
import { WorkerConnection } from './worker-connection';

/** createAgent's options as they cross to the worker, but the tools: a worker gets the tools registered when it starts. */
export type AgentSettings = Omit<HostConfig, 'tools' | 'tabLock'>;

export class Supervisor {
  info?: HostInfo;
  /** Set when the agent started; the same across worker restarts. */
  sessionId = '';
  private connection?: WorkerConnection;
  private starting?: Promise<void>;
  private closed = false;
  /** Held while this agent lives, so that a shared worker notices when the tab is gone. */
  private readonly tabLock = `inpage-agent/tab/${crypto.randomUUID()}`;
  private releaseTabLock?: () => void;

  constructor(
    private readonly options: AgentOptions,
    private readonly config: AgentSettings,
    private readonly tools: () => ToolDeclaration[],
    private readonly pageApi: () => PageApi,
    private readonly onStatus: (status: AgentStatus, detail?: string) => void,
    /** Told each time a worker has opened the session: at the start, and after a restart. */
    private readonly onStarted: () => void = () => undefined,
  ) {}

  get isClosed(): boolean {
    return this.closed;
  }

  /** Starts the worker and opens the session in it. */
  start(): Promise<void> {
    this.starting = this.boot();
    return this.starting;
  }

  /** The live connection, once the worker is up (after a restart, the new one). */
  async current(): Promise<WorkerConnection> {
    if (this.closed) throw closedError();
    await this.starting;
    if (this.closed || !this.connection) throw closedError();
    return this.connection;
  }

  /**
   * Any call to the worker, in the order asked: every call waits for the worker of the moment the same
   * way (started, or restarted after a crash), so they leave on its one port in the order they were made,
   * and the worker handles them in that order (a run sent after registerTool or openSession, even without
   * awaiting them, sees the tool and runs in that session). Rejected at once if the worker dies or the
   * agent is closed first.
   */
  send<T>(fn: (connection: WorkerConnection) => Promise<T>): Promise<T> {
    return this.current().then(fn);
  }

  /** Resolves once the worker that replaced a dead one has opened the session; rejects if none will. */
  async restarted(): Promise<void> {
    await Promise.resolve();
    if (this.options.restart === 'never')
      throw new AgentError('worker-crashed', 'The worker is not restarted (restart: "never").');
    await this.current();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const connection = this.connection;
    try {
      if (connection)
        await Promise.race([connection.remote.close(), new Promise((resolve) => setTimeout(resolve, 1000))]);
    } catch {
      // A dead worker has nothing left to close.
    }
    connection?.terminate();
    this.releaseTabLock?.();
  }

  private async boot(): Promise<void> {
    await this.holdTabLock();
    const connection = startConnection(this.options);
    this.connection = connection;
    const notice = connection.notice ?? (unshareable(this.options) ? WLLAMA_NOT_SHARED : undefined);
    if (notice) this.onStatus('starting', notice);
    connection.dead.catch((error: AgentError) => this.onDeath(connection, error));
    const config: HostConfig = {
      ...this.config,
      tools: this.tools(),
      ...(this.releaseTabLock && { tabLock: this.tabLock }),
      ...(this.sessionId && { sessionId: this.sessionId }),
    };
    const info = await connection.call((remote) => remote.init(config, Comlink.proxy(this.pageApi())));
    this.info = notice ? { ...info, hostNotice: notice } : info;
    this.sessionId = this.info.sessionId;
    this.onStarted();
  }

  /** The worker opened another session (agent.openSession): a restart opens that one. */
  opened(sessionId: string): void {
    if (this.info) this.info = { ...this.info, sessionId };
    this.sessionId = sessionId;
  }

  private onDeath(connection: WorkerConnection, error: AgentError): void {
    if (this.closed || connection !== this.connection || error.code !== 'worker-crashed') return;
    this.onStatus('crashed', error.message);
    if (this.options.restart === 'never') return;
    this.starting = this.boot();
    this.starting.catch(() => this.onStatus('crashed', 'The worker could not be restarted.'));
  }

  /** Where the browser denies Web Locks (an opaque origin), the agent goes on without the tab lock. */
  private async holdTabLock(): Promise<void> {
    if (this.releaseTabLock || typeof navigator === 'undefined' || !navigator.locks) return;
    await new Promise<void>((held) => {
      navigator.locks
        .request(this.tabLock, () => {
          held();
          return new Promise<void>((release) => (this.releaseTabLock = release));
        })
        .catch(() => held());
    });
  }
}

const WLLAMA_NOT_SHARED =
  "share: 'tabs' was asked for, but llama.cpp (the wllama engine) starts a worker of its own, which a SharedWorker cannot do in Chromium: the model runs in a worker of this tab only.";

/** A wllama model cannot live in a SharedWorker: such an agent falls back to the tab's own worker. */
function unshareable(options: AgentOptions): boolean {
  return options.share === 'tabs' && options.model.engine === 'wllama';
}

/** A worker the browser refuses to start (e.g. from an opaque origin) is a clear error, not a SecurityError. */
function startConnection(options: AgentOptions): WorkerConnection {
  try {
    return new WorkerConnection({
      workerUrl: options.workerUrl,
      sharedWorkerUrl: options.sharedWorkerUrl,
      share: unshareable(options) ? undefined : options.share,
    });
  } catch (error) {
    const opaque = typeof location !== 'undefined' && (location.origin === 'null' || self.origin === 'null');
    throw new AgentError(
      'worker-failed',
      opaque
        ? "The agent's worker cannot start here: this page has an opaque origin (a sandboxed iframe without allow-same-origin, or a data: URL), where browsers start no worker from a URL and deny IndexedDB and Web Locks. Add allow-same-origin to the iframe's sandbox, or host the agent in the top page."
        : `The agent's worker could not start (${error instanceof Error ? error.message : String(error)}). Check createAgent({ workerUrl }).`,
      { cause: error },
    );
  }
}

export function closedError(): AgentError {
  return new AgentError('closed', 'This agent was closed; create a new one with createAgent().');
}
