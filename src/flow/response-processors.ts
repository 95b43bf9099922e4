/**
 * What happens to a model's answer before it is recorded: an ordered list of
 * processors (after ADK's response processors). Each sees the calls as the
 * loop will record and run them, and may change them in place.
 */
import type { ModelRequest } from '../model/engine';
import { newId, type FunctionCall } from '../session/event';
import type { StepResponse } from './call-model';
import type { Invocation } from './types';

export interface ProcessedResponse {
  /** What the model was asked, for processors that hold its answer to the request's rules. */
  request: ModelRequest;
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

/**
 * The step's tool choice is the page's rule, not the model's: a call it does
 * not allow is answered with the reason and never runs, whatever the model
 * (or an engine without a grammar) wrote.
 */
export const holdToToolChoice: ResponseProcessor = (_inv, processed) => {
  const choice = processed.request.toolChoice;
  if (!choice || choice === 'auto' || choice === 'required') return;
  for (const call of processed.calls) {
    if (processed.unreadable.has(call.id)) continue;
    if (choice === 'none') {
      processed.unreadable.set(call.id, 'No tool may be called in this step: answer in plain text.');
    } else if (call.name !== choice.name) {
      processed.unreadable.set(
        call.id,
        `Only ${choice.name} may be called in this step; call it, or answer in plain text.`,
      );
    }
  }
};

export const defaultResponseProcessors: ResponseProcessor[] = [assignCallIds, answerUnreadableCalls, holdToToolChoice];

export function processResponse(
  inv: Invocation,
  request: ModelRequest,
  response: StepResponse,
  processors: readonly ResponseProcessor[] = defaultResponseProcessors,
): ProcessedResponse {
  const processed: ProcessedResponse = {
    request,
    response,
    calls: response.toolCalls.map((call) => ({ id: call.id ?? '', name: call.name, args: call.args ?? {} })),
    unreadable: new Map(),
  };
  for (const processor of processors) processor(inv, processed);
  return processed;
}
