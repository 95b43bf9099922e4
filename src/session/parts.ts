/**
 * An event's parts by kind, after ADK's FunctionCalls() and
 * FunctionResponses(): the one place that knows how parts are told apart,
 * so no reader of the log writes the filter by hand.
 */
import type { AgentEvent, FunctionCall, FunctionResponse, Part } from './event';

type WithContent = Pick<AgentEvent, 'content'>;

export function functionCalls(event: WithContent): FunctionCall[] {
  const calls: FunctionCall[] = [];
  for (const part of event.content?.parts ?? []) if ('functionCall' in part) calls.push(part.functionCall);
  return calls;
}

export function functionResponses(event: WithContent): FunctionResponse[] {
  const responses: FunctionResponse[] = [];
  for (const part of event.content?.parts ?? []) if ('functionResponse' in part) responses.push(part.functionResponse);
  return responses;
}

/** The text parts joined (reasoning is a part of its own, left out). */
export function textOf(parts: readonly Part[], separator = ''): string {
  return parts.map((part) => ('text' in part ? part.text : '')).join(separator);
}
