/**
 * A warmup in the worker of the moment (Agent.warmup says what it reads
 * ahead). The signal rejects it at once: llama.cpp stops after the piece it
 * is reading, which the page need not wait for.
 */
import * as Comlink from 'comlink';
import { AgentError } from '../errors';
import type { PromptRead, WarmupResult } from '../model/engine';
import { abortIn } from './run-stream';
import { closedError, type Supervisor } from './supervisor';

export async function warmupIn(
  supervisor: Supervisor,
  signal: AbortSignal | undefined,
  on: { result: (result: WarmupResult) => void; read: (progress: PromptRead) => void },
): Promise<WarmupResult> {
  if (signal?.aborted) throw warmupAborted();
  const runId = crypto.randomUUID();
  let settled = false;
  // A stopped warmup's last piece may still report: the page hears nothing after the promise settles.
  const read = (progress: PromptRead) => {
    if (!settled) on.read(progress);
  };
  // Sent now, in the order the page asked (after an openSession it did not await, before a message it sends next).
  const warming = supervisor.send((connection) => {
    if (signal?.aborted) throw warmupAborted();
    return connection.service('model').warmup({ runId }, Comlink.proxy(read));
  });
  let stop = () => undefined as void;
  const stopped = new Promise<never>((_, reject) => {
    stop = () => {
      reject(warmupAborted());
      // Sent after the warmup, so it reaches the worker the warmup went to.
      void supervisor.send((connection) => abortIn(connection, runId)).catch(() => undefined);
    };
    signal?.addEventListener('abort', stop, { once: true });
  });
  stopped.catch(() => undefined);
  try {
    const result = await Promise.race([warming, stopped]);
    on.result(result);
    return result;
  } catch (error) {
    if (supervisor.isClosed) throw closedError();
    throw error;
  } finally {
    settled = true;
    signal?.removeEventListener('abort', stop);
  }
}

function warmupAborted(): AgentError {
  return new AgentError('aborted', 'The warmup was aborted: the prompt was not read ahead (or only in part).');
}
