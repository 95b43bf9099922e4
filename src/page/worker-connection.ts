/**
 * The page's line to its worker, with what comlink lacks: every call and every
 * stream read rejects with 'worker-crashed' as soon as the worker is gone.
 */
import * as Comlink from 'comlink';
import { AgentError } from '../errors';
import type { AgentHostApi } from '../worker/protocol';
import { installErrorTransfer } from '../worker/error-transfer';
import { startDefaultWorker } from './worker-url';

type WorkerApi = AgentHostApi & { holdLifeline(name: string): Promise<void> };

export class WorkerConnection {
  readonly worker: Worker;
  readonly remote: Comlink.Remote<WorkerApi>;
  /** Rejects with worker-crashed (or worker-failed) when the worker dies; never resolves. */
  readonly dead: Promise<never>;
  private closing = false;
  private die!: (error: AgentError) => void;

  constructor(workerUrl?: string | URL) {
    installErrorTransfer();
    const name = `inpage-agent-${crypto.randomUUID()}`;
    this.worker = workerUrl ? new Worker(workerUrl, { type: 'module', name }) : startDefaultWorker(name);
    this.dead = new Promise<never>((_, reject) => {
      this.die = reject;
    });
    this.dead.catch(() => undefined);
    this.remote = Comlink.wrap<WorkerApi>(this.worker);
    this.worker.addEventListener('error', (event) => {
      // A script that fails to load or evaluate fires `error` on the Worker object.
      event.preventDefault();
      this.die(
        new AgentError(
          'worker-failed',
          `The agent's worker could not start (${event.message || 'its script failed to load'}). Check that inpage-agent.worker.js is served next to the page bundle, or pass createAgent({ workerUrl }).`,
        ),
      );
    });
    void this.watch(name);
  }

  /** Any call to the worker, rejected at once if the worker dies first. */
  call<T>(fn: (remote: Comlink.Remote<WorkerApi>) => Promise<T>): Promise<T> {
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
    this.worker.terminate();
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
