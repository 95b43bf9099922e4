/**
 * What happens to a model's answer before it is recorded: an ordered list of
 * processors (after ADK's response processors). Each sees the calls as the
 * loop will record and run them, and may change them in place.
 */
import { newId, type FunctionCall } from '../session/event';
import type { StepResponse } from './call-model';
import type { Invocation } from './types';

export interface ProcessedResponse {
  response: StepResponse;
  calls: FunctionCall[];
  /** Calls that could not be read, by id: the message the model gets back. */
  unreadable: Map<string, string>;
}

export type ResponseProcessor = (inv: Invocation, processed: ProcessedResponse) => void;

/** Every call gets an id if the model gave none, and ids are unique within the turn. */
export const assignCallIds: ResponseProcessor = (_inv, processed) => {
  const seen = new Set<string>();
  for (const call of processed.calls) {
    if (!call.id || seen.has(call.id)) call.id = newId('call');
    seen.add(call.id);
  }
};

/** Calls the model tried to make but that could not be read are answered with the reason, so it can correct itself. */
export const answerUnreadableCalls: ResponseProcessor = (_inv, processed) => {
  for (const bad of processed.response.callErrors) {
    const id = bad.id && !processed.calls.some((call) => call.id === bad.id) ? bad.id : newId('call');
    processed.unreadable.set(id, bad.message);
    processed.calls.push({ id, name: bad.name ?? 'unreadable_tool_call', args: { raw: bad.raw } });
  }
};

export const defaultResponseProcessors: ResponseProcessor[] = [assignCallIds, answerUnreadableCalls];

export function processResponse(
  inv: Invocation,
  response: StepResponse,
  processors: readonly ResponseProcessor[] = defaultResponseProcessors,
): ProcessedResponse {
  const processed: ProcessedResponse = {
    response,
    calls: response.toolCalls.map((call) => ({ id: call.id ?? '', name: call.name, args: call.args ?? {} })),
    unreadable: new Map(),
  };
  for (const processor of processors) processor(inv, processed);
  return processed;
}
