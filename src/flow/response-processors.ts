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
  /** Calls answered with a message instead of running (unreadable, not allowed this step), by id. */
  refused: Map<string, string>;
}

export type ResponseProcessor = (inv: Invocation, processed: ProcessedResponse) => void;

/**
 * Every call gets a fresh id of the runtime's. Small models reuse ids
 * ("call_0" every turn) and a hostile one reuses an approved id on purpose;
 * the model's own id is kept aside and decides nothing.
 */
export const assignCallIds: ResponseProcessor = (_inv, processed) => {
  for (const call of processed.calls) {
    if (call.id) call.modelCallId = call.id;
    call.id = newId('call');
  }
};

/** Calls the model tried to make but that could not be read are answered with the reason, so it can correct itself. */
export const answerUnreadableCalls: ResponseProcessor = (_inv, processed) => {
  for (const bad of processed.response.callErrors) {
    const id = newId('call');
    processed.refused.set(id, bad.message);
    processed.calls.push({
      id,
      name: bad.name ?? 'unreadable_tool_call',
      args: { raw: bad.raw },
      ...(bad.id && { modelCallId: bad.id }),
    });
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
    if (processed.refused.has(call.id)) continue;
    if (choice === 'none') {
      processed.refused.set(call.id, 'No tool may be called in this step: answer in plain text.');
    } else if (call.name !== choice.name) {
      processed.refused.set(
        call.id,
        `Only ${choice.name} may be called in this step; call it, or answer in plain text.`,
      );
    }
  }
};

/**
 * The prompt describes the run's tools; a step allows only some of them
 * (`allowedTools`, e.g. what the toolkit graph recommends now). A call to a
 * described tool the step does not allow is answered with the reason and
 * never runs, whatever the model (or an engine without a grammar) wrote.
 */
export const holdToAllowedTools: ResponseProcessor = (_inv, processed) => {
  const allowed = processed.request.allowedTools;
  if (!allowed) return;
  const names = new Set(allowed);
  for (const call of processed.calls) {
    if (processed.refused.has(call.id) || names.has(call.name)) continue;
    processed.refused.set(
      call.id,
      allowed.length
        ? `The tool "${call.name}" may not be called in this step. The tools you can call now are: ${allowed.join(', ')}. Call one of them, or answer in plain text.`
        : `No tool may be called in this step: answer in plain text.`,
    );
  }
};

export const defaultResponseProcessors: ResponseProcessor[] = [
  assignCallIds,
  answerUnreadableCalls,
  holdToToolChoice,
  holdToAllowedTools,
];

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
    refused: new Map(),
  };
  for (const processor of processors) processor(inv, processed);
  return processed;
}
