/**
 * What happens to a model's answer before it is recorded: an ordered list of
 * processors (after ADK's response processors). Each sees the calls as the
 * loop will record and run them, and may change them in place.
 */
import type { ModelRequest } from '../../model/engine';
import type { Invocation, ProcessedResponse, ResponseProcessor, StepResponse } from '../types';
import { assignCallIds } from './assign-call-ids';
import { holdToAllowedTools } from './hold-to-allowed-tools';
import { holdToToolChoice } from './hold-to-tool-choice';
import { refuseUnreadableCalls } from './refuse-unreadable-calls';

const defaultResponseProcessors: readonly ResponseProcessor[] = [
  assignCallIds,
  refuseUnreadableCalls,
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
