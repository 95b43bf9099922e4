/** A run's events to the end: the answer is the last model text, or a return-direct tool's output. */
import type { AgentEvent } from '../session/event';
import type { RunResult } from './options';

export async function collectRun(events: AsyncIterable<AgentEvent>): Promise<RunResult> {
  const stored: AgentEvent[] = [];
  let text = '';
  let last: AgentEvent | undefined;
  for await (const event of events) {
    if (event.partial) continue;
    stored.push(event);
    last = event;
    const parts = event.content?.parts ?? [];
    if (event.content?.role === 'model') {
      const said = parts.map((part) => ('text' in part ? part.text : '')).join('');
      if (said) text = said;
    }
    if (event.endReason === 'return-direct') {
      const responses = parts.flatMap((part) => ('functionResponse' in part ? [part.functionResponse.response] : []));
      const output = responses[responses.length - 1];
      text = typeof output === 'string' ? output : JSON.stringify(output);
    }
  }
  return { text, events: stored, endReason: last?.endReason, error: last?.error };
}
