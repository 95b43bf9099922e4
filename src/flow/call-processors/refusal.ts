/** A call answered with a message instead of running: what the model reads, and the failure's stable code. */
import type { CallResponse, Turn, TurnCall } from '../types';

export function refusal(turn: Turn, call: TurnCall, error: string, code?: string): CallResponse {
  const { id, name } = call.call;
  return {
    response: { id, name, response: null, error, ...(code && { code }) },
    ms: performance.now() - turn.t0,
  };
}
