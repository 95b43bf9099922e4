/**
 * A warmup in the worker of the moment (Agent.warmup says what it reads
 * ahead). The signal rejects it at once: llama.cpp stops after the piece it
 * is reading, which the page need not wait for.
 */
import { AgentError } from '../errors';
import type { WarmupResult } from '../model/engine';
import { abortIn } from './run-stream';
import { closedError, type Supervisor } from './supervisor';
import { serviceOf } from './worker-services';

export async function warmupIn(
  supervisor: Supervisor,
  signal: AbortSignal | undefined,
  onResult: (result: WarmupResult) => void,
): Promise<WarmupResult> {
  if (signal?.aborted) throw warmupAborted();
  const connection = await supervisor.current();
  if (signal?.aborted) throw warmupAborted();
  const runId = crypto.randomUUID();
  let stop = () => undefined as void;
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
    onResult(result);
    return result;
  } catch (error) {
    if (supervisor.isClosed) throw closedError();
    throw error;
  } finally {
    signal?.removeEventListener('abort', stop);
  }
}

function warmupAborted(): AgentError {
  return new AgentError('aborted', 'The warmup was aborted: the prompt was not read ahead (or only in part).');
}
