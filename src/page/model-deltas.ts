/**
 * agent.generate's reading of the worker's delta stream: the model's deltas as
 * they come, an AgentError for a failure (the worker sends its plain form), and
 * the generation stopped in the worker when the caller aborts or stops reading.
 * A worker that dies mid-stream ends it with worker-crashed, as every call does.
 */
import { AgentError, type AgentErrorData } from '../errors';
import type { ModelDelta, ModelRequest } from '../model/engine';
import type { Supervisor } from './supervisor';

export async function* modelDeltas(
  supervisor: Pick<Supervisor, 'send'>,
  request: ModelRequest,
  signal?: AbortSignal,
): AsyncGenerator<ModelDelta> {
  if (signal?.aborted) throw abortedError();
  const { connection, stream } = await supervisor.send(async (connection) => ({
    connection,
    stream: await connection.service('model').generate(request),
  }));
  const reader = stream.getReader();
  let onAbort!: () => void;
  const aborted = new Promise<never>((_, reject) => (onAbort = () => reject(abortedError())));
  aborted.catch(() => undefined);
  signal?.addEventListener('abort', onAbort, { once: true });
  // Aborted while the worker was asked: the listener came too late to hear it.
  if (signal?.aborted) onAbort();
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), connection.dead, aborted]);
      if (done) return;
      yield value;
    }
  } catch (error) {
    throw isErrorData(error) ? AgentError.fromJSON(error) : error;
  } finally {
    signal?.removeEventListener('abort', onAbort);
    // Stops the generation in the worker; after the last delta it is a no-op.
    void reader.cancel().catch(() => undefined);
  }
}

function abortedError(): AgentError {
  return new AgentError('aborted', 'The generation was aborted.');
}

function isErrorData(value: unknown): value is AgentErrorData {
  return (
    typeof value === 'object' &&
    value !== null &&
    !(value instanceof Error) &&
    typeof (value as AgentErrorData).code === 'string' &&
    typeof (value as AgentErrorData).message === 'string'
  );
}
