/**
 * The page's line to its worker, with what comlink lacks: every call and every
 * stream read rejects with 'worker-crashed' as soon as the worker is gone.
 */
import * as Comlink from 'comlink';
import { AgentError } from '../errors';
import type { AgentHostApi } from '../worker/protocol';
import { installErrorTransfer } from '../worker/error-transfer';
import { startDefaultSharedWorker, startDefaultWorker } from './worker-url';

type WorkerApi = AgentHostApi;

export interface ConnectionOptions {
  workerUrl?: string | URL;
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
  private die!: (error: AgentError) => void;

  constructor(options: ConnectionOptions = {}) {
    installErrorTransfer();
    const name = `inpage-agent-${crypto.randomUUID()}`;
    this.dead = new Promise<never>((_, reject) => {
      this.die = reject;
    });
    this.dead.catch(() => undefined);
    let target: Worker | SharedWorker;
    if (options.share === 'tabs' && typeof SharedWorker === 'function') {
      this.shared = options.sharedWorkerUrl
        ? new SharedWorker(options.sharedWorkerUrl, { type: 'module', name: SHARED_NAME })
        : startDefaultSharedWorker(SHARED_NAME);
      target = this.shared;
      this.remote = Comlink.wrap<WorkerApi>(this.shared.port);
    } else {
      if (options.share === 'tabs')
        this.notice = 'This browser has no SharedWorker: the model runs in a worker of this tab only.';
      this.worker = options.workerUrl
        ? new Worker(options.workerUrl, { type: 'module', name })
        : startDefaultWorker(name);
      target = this.worker;
      this.remote = Comlink.wrap<WorkerApi>(this.worker);
    }
    target.addEventListener('error', (event) => {
      // A script that fails to load or evaluate fires `error` on the Worker object.
      event.preventDefault();
      const message = event instanceof ErrorEvent ? event.message : '';
      this.die(
        new AgentError(
          'worker-failed',
          `The agent's worker could not start (${message || 'its script failed to load'}). Check that inpage-agent.worker.js is served next to the page bundle, or pass createAgent({ workerUrl }).`,
        ),
      );
    });
    void this.watch(name);
  }

  /** Any call to the worker, rejected at once if the worker dies first. */
  call<T>(fn: (remote: Comlink.Remote<WorkerApi>) => Promise<T>): Promise<T> {
    // A released proxy throws at once; the connection's end (closed or crashed) is the answer instead.
    if (this.closing) return this.dead;
    return Promise.race([fn(this.remote), this.dead]);
  }

  /** Reads a stream from the worker, ending with worker-crashed if the worker dies mid-stream. */
  async *read<T>(stream: ReadableStream<T>): AsyncGenerator<T> {
    const reader = stream.getReader();
    try {
      for (;;) {
        const { done, value } = await Promise.race([reader.read(), this.dead]);
        if (done) return;
        yield value;
      }
    } finally {
      reader.releaseLock();
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
      await Promise.race([this.remote.holdLifeline(name), this.dead]);
    } catch {
      return;
    }
    // Granted only once the worker holding the lock is gone.
    await navigator.locks.request(name, async () => undefined);
    if (this.closing) return;
    this.die(
      new AgentError(
        'worker-crashed',
        "The agent's worker stopped (terminated, out of memory, or crashed). The session is safe in storage; the agent restarts the worker unless createAgent({ restart: 'never' }).",
      ),
    );
  }
}
