/**
 * A run's events as the page reads them: the worker of the moment starts the
 * command and sends its events on a port. The signal, or leaving the loop
 * early, stops the run in that worker. The page counts the runs it reads, so
 * its status is 'running' from the first until the last ends, without a hop to
 * the worker.
 */
import { AgentError } from '../errors';
import type { AgentStatus, RunCommand } from '../contract/protocol';
import type { AgentEvent } from '../session/event';
import type { RunOptions } from './options';
import { closedError, type Supervisor } from './supervisor';
import type { WorkerConnection } from './worker-connection';

/** The agent's side of its runs: where each event goes, and its status. */
export interface RunListener {
  notify(event: AgentEvent): void;
  status(): AgentStatus;
  setStatus(status: AgentStatus): void;
}

export class RunStreams {
  /** Runs whose events this page is reading now. */
  private reading = 0;

  constructor(
    private readonly supervisor: Supervisor,
    private readonly listener: RunListener,
  ) {}

  async *stream(command: RunCommand, signal: AbortSignal | undefined): AsyncGenerator<AgentEvent> {
    if (signal?.aborted) throw new AgentError('aborted', 'The run was aborted before it started.');
    // Sent now, in the order the page asked: after the tools it changed and the session it opened before.
    const started = this.supervisor.send(async (connection) => {
      // Aborted while the worker was awaited: the run never starts.
      if (signal?.aborted) throw new AgentError('aborted', 'The run was aborted before it started.');
      return { connection, events: await connection.service('runs').start(command) };
    });
    // Sent after the run, so it reaches the worker the run went to.
    const onAbort = () =>
      void this.supervisor.send((connection) => abortIn(connection, command.runId)).catch(() => undefined);
    signal?.addEventListener('abort', onAbort, { once: true });
    let ended = false;
    if (this.reading++ === 0) this.listener.setStatus('running');
    try {
      const { connection, events } = await started;
      for await (const event of connection.read(events)) {
        if (event.endReason && !event.partial) ended = true;
        this.listener.notify(event);
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
      if (--this.reading === 0 && this.listener.status() === 'running') this.listener.setStatus('ready');
    }
    if (this.supervisor.isClosed) throw closedError();
  }
}

/** A run's id (the page's, so that it can stop it) and what it does when the session is busy. */
export function runControl(options: RunOptions) {
  return { runId: crypto.randomUUID(), ifBusy: options.ifBusy ?? 'wait' } as const;
}

/** Stops a run or a warmup of this connection's worker; a worker that is gone has nothing to stop. */
export async function abortIn(connection: WorkerConnection, runId: string): Promise<void> {
  try {
    await connection.service('runs').abort(runId);
  } catch {
    // Gone, or closed: nothing of it runs.
  }
}
