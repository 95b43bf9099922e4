/**
 * A run's events to the end: the answer is the last model text, or a return-direct tool's output; the
 * calls are what the events say of each (`earlier`: the calls of an earlier run that this one answers).
 */
import type { AgentEvent, ApprovalRequest } from '../session/event';
import { functionResponses, textOf } from '../session/parts';
import { runCalls } from '../session/run-calls';
import type { RunResult } from './options';

export async function collectRun(
  events: AsyncIterable<AgentEvent>,
  earlier: readonly ApprovalRequest[] = [],
): Promise<RunResult> {
  const stored: AgentEvent[] = [];
  let text = '';
  let last: AgentEvent | undefined;
  for await (const event of events) {
    if (event.partial) continue;
    stored.push(event);
    last = event;
    const parts = event.content?.parts ?? [];
    if (event.content?.role === 'model') {
      const said = textOf(parts);
      if (said) text = said;
    }
    if (event.endReason === 'return-direct') {
      const output = functionResponses(event).at(-1)?.response;
      text = typeof output === 'string' ? output : JSON.stringify(output);
    }
  }
  const claims = stored.flatMap((event) => event.unperformedClaims ?? []);
  return {
    text,
    events: stored,
    endReason: last?.endReason,
    error: last?.error,
    calls: runCalls(stored, earlier),
    ...(claims.length && { unperformedClaims: claims }),
  };
}
