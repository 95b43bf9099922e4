/**
 * The page's line to its worker, with what comlink lacks: every call and every
 * stream read rejects with 'worker-crashed' as soon as the worker is gone.
 */
import * as Comlink from 'comlink';
import { AgentError, isAgentError, messageOf } from '../errors';
import type { AgentHostApi, EventPort } from '../contract/protocol';
import type { AgentEvent } from '../session/event';
import { installErrorTransfer } from '../contract/error-transfer';
import { lifelineEnded } from '../contract/lifeline';
import { startDefaultSharedWorker, startDefaultWorker } from './worker-url';
import { startModuleSharedWorker, startModuleWorker } from './worker-url.any-origin';

type WorkerApi = AgentHostApi;

/** The worker's services, by the name the page reaches each under. */
export type ServiceName = 'runs' | 'sessions' | 'tools' | 'model' | 'toolkit';

export interface ConnectionOptions {
  /** Where inpage-agent/worker is served; absent: beside the page bundle (see worker-url.ts). */
  workerUrl?: string | URL;
  /** Where inpage-agent/shared-worker is served, for share: 'tabs'. */
  sharedWorkerUrl?: string | URL;
  /** 'tabs': one SharedWorker per origin holds the model for every tab. */
  share?: 'tabs';
}

/** The name every tab uses, so that they all reach the same SharedWorker. */
const SHARED_NAME = 'inpage-agent';

export class WorkerConnection {
  /** The dedicated worker; undefined when connected to a SharedWorker. */
  readonly worker?: Worker;
  readonly shared?: SharedWorker;
  /** Said when share: 'tabs' was asked for but this browser has no SharedWorker. */
  readonly notice?: string;
  readonly remote: Comlink.Remote<WorkerApi>;
  /** Rejects with worker-crashed (or worker-failed) when the worker dies; never resolves. */
  readonly dead: Promise<never>;
  private closing = false;
  private rejectDead!: (error: AgentError) => void;
  /** How the connection ended, once it has. */
  private ended?: AgentError;
  /**
   * Calls in flight, each rejected when the worker dies. A race with `dead` instead hung two reactions on
   * it for every call, kept until the worker died: the page's heap grew ~1.2 KiB a run (bench/load.bench.ts).
   */
  private readonly inFlight = new Set<(error: AgentError) => void>();
  /** The worker's services as this connection reaches them (see service()), by name. */
  private readonly services = new Map<ServiceName, object>();

  constructor(options: ConnectionOptions = {}) {
    installErrorTransfer();
    const name = `inpage-agent-${crypto.randomUUID()}`;
    this.dead = new Promise<never>((_, reject) => {
      this.rejectDead = reject;
    });
    this.dead.catch(() => undefined);
    const shared = options.share === 'tabs' && typeof SharedWorker === 'function';
    if (options.share === 'tabs' && !shared)
      this.notice = 'This browser has no SharedWorker: the model runs in a worker of this tab only.';
    let target: Worker | SharedWorker;
    try {
      if (shared) {
        this.shared = options.sharedWorkerUrl
          ? startModuleSharedWorker(options.sharedWorkerUrl, SHARED_NAME)
          : startDefaultSharedWorker(SHARED_NAME);
        target = this.shared;
      } else {
        this.worker = options.workerUrl ? startModuleWorker(options.workerUrl, name) : startDefaultWorker(name);
        target = this.worker;
      }
    } catch (error) {
      // A URL that does not parse, or a browser that refuses the script's origin, throws right here.
      throw isAgentError(error)
        ? error
        : new AgentError('worker-failed', workerFailedMessage(shared, messageOf(error), options), { cause: error });
    }
    this.remote = Comlink.wrap<WorkerApi>(this.shared ? this.shared.port : this.worker!);
    target.addEventListener('error', (event) => {
      // A script that fails to load or evaluate fires `error` on the Worker object.
      event.preventDefault();
      const message = event instanceof ErrorEvent ? event.message : '';
      this.die(new AgentError('worker-failed', workerFailedMessage(shared, message, options)));
    });
    void this.watch(name);
  }

  /** Any call to the worker, rejected at once if the worker dies first. */
  call<T>(fn: (remote: Comlink.Remote<WorkerApi>) => Promise<T>): Promise<T> {
    // A released proxy throws at once; the connection's end (closed or crashed) is the answer instead.
    if (this.closing) return this.dead;
    return this.untilDeath(fn(this.remote));
  }

  /** `promise`, or the connection's end if that comes first; nothing of it stays once it settles. */
  private untilDeath<T>(promise: Promise<T>): Promise<T> {
    if (this.ended) return Promise.reject(this.ended);
    return new Promise<T>((resolve, reject) => {
      this.inFlight.add(reject);
      promise.then(resolve, reject).finally(() => this.inFlight.delete(reject));
    });
  }

  private die(error: AgentError): void {
    if (this.ended) return;
    this.ended = error;
    this.rejectDead(error);
    for (const reject of this.inFlight) reject(error);
    this.inFlight.clear();
  }

  /**
   * A service the worker holds (AgentHostApi's runs, sessions, tools, model, toolkit), reached by path over
   * this connection's one port, so its calls leave in the order they are made; each rejects with
   * worker-crashed as soon as the worker is gone, like every other call.
   */
  service<N extends ServiceName>(name: N): Comlink.Remote<WorkerApi[N]> {
    let service = this.services.get(name);
    if (!service) {
      service = this.raced(this.remote[name] as object);
      this.services.set(name, service);
    }
    return service as Comlink.Remote<WorkerApi[N]>;
  }

  private raced<T extends object>(service: T): T {
    return new Proxy(service, {
      get: (target, property) => {
        // Not a thenable: on comlink's proxy, `then` would fetch the whole service.
        if (typeof property !== 'string' || property === 'then') return undefined;
        const member = Reflect.get(target, property) as (...args: unknown[]) => Promise<unknown>;
        // Called as is: on a comlink proxy, `.apply` would be one more remote property.
        return (...args: unknown[]) => this.call(() => member(...args));
      },
    });
  }

  /** Reads a run's events (contract: EventPort), ending with worker-crashed if the worker dies before the last. */
  async *read(port: EventPort): AsyncGenerator<AgentEvent> {
    const arrived: (AgentEvent | null)[] = [];
    let wake: (() => void) | undefined;
    port.onmessage = (message: MessageEvent<AgentEvent | null>) => {
      arrived.push(message.data);
      wake?.();
    };
    try {
      for (;;) {
        while (arrived.length === 0) await this.untilDeath(new Promise<void>((resolve) => (wake = resolve)));
        const event = arrived.shift()!;
        if (event === null) return;
        yield event;
      }
    } finally {
      port.close();
    }
  }

  terminate(): void {
    this.closing = true;
    this.remote[Comlink.releaseProxy]();
    // A SharedWorker serves other tabs too: only our port closes.
    this.worker?.terminate();
    this.shared?.port.close();
    this.die(new AgentError('closed', 'The agent was closed.'));
  }

  private async watch(name: string): Promise<void> {
    try {
      await this.untilDeath(this.remote.holdLifeline(name));
    } catch {
      return;
    }
    await lifelineEnded(name);
    if (this.closing) return;
    this.die(
      new AgentError(
        'worker-crashed',
        "The agent's worker stopped (terminated, out of memory, or crashed). The session is safe in storage; the agent restarts the worker unless createAgent({ restart: 'never' }).",
      ),
    );
  }
}

/**
 * Why a worker did not start and the line that fixes it: a load failure
 * (Chromium gives no reason) is nearly always a bundler that did not emit the
 * worker file, or a copy of the package's files without the worker beside it.
 */
function workerFailedMessage(shared: boolean, reason: string, options: ConnectionOptions): string {
  const [what, file, entry, option] = shared
    ? ["The agent's shared worker", 'inpage-agent.shared-worker.js', 'inpage-agent/shared-worker', 'sharedWorkerUrl']
    : ["The agent's worker", 'inpage-agent.worker.js', 'inpage-agent/worker', 'workerUrl'];
  const given = shared ? options.sharedWorkerUrl : options.workerUrl;
  const why = reason || 'its script failed to load';
  if (given)
    return `${what} could not start from ${option} ${String(given)} (${why}). That URL must serve ${entry} (node_modules/inpage-agent/dist/${file}) with the chunks/ folder beside it.`;
  return (
    `${what} could not start (${why}): ${file} was not found beside the inpage-agent module. ` +
    `A bundler that does not emit workers by itself (esbuild, Rollup) needs it as an entry point, e.g. esbuild's ` +
    `"${file.replace(/\.js$/, '')}=${entry}" (with --splitting); or serve node_modules/inpage-agent/dist/ and pass createAgent({ ${option} }). ` +
    `Without a bundler, keep ${file} and chunks/ beside inpage-agent.js. See docs/install.md ("Bundlers").`
  );
}
