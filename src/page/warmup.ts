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
import { serviceOf } from './worker-services';

export async function warmupIn(
  supervisor: Supervisor,
  signal: AbortSignal | undefined,
  on: { result: (result: WarmupResult) => void; read: (progress: PromptRead) => void },
): Promise<WarmupResult> {
  if (signal?.aborted) throw warmupAborted();
  const connection = await supervisor.current();
  if (signal?.aborted) throw warmupAborted();
  const runId = crypto.randomUUID();
  let settled = false;
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
    // A stopped warmup's last piece may still report: the page hears nothing after the promise settles.
    const read = (progress: PromptRead) => {
      if (!settled) on.read(progress);
    };
    const warming = model.then((service) => service.warmup({ runId }, Comlink.proxy(read)));
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
