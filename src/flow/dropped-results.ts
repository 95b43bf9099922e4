/**
 * Stored results a prompt cannot replay: JSON cannot write them within the
 * result cap (an earlier version kept a sparse array of length 2**32-1, a
 * BigInt). The model reads that each was dropped (history-to-messages.ts);
 * the person reads it here, in a notice recorded once per call, so that such
 * a session still opens and runs, and says what it lost.
 */
import type { AgentEvent } from '../session/event';
import { describeJsonProblem, jsonProblem } from '../tools/plain-json';
import type { EventDraft } from './record';

export const RESULT_DROPPED = 'result-dropped';

export function droppedResultsNotice(history: readonly AgentEvent[]): EventDraft | undefined {
  const told = history.flatMap((event) => (event.notices ?? []).filter((notice) => notice.code === RESULT_DROPPED));
  const notices: { code: string; message: string }[] = [];
  for (const event of history) {
    if (event.content?.role !== 'tool' || event.late) continue;
    for (const part of event.content.parts) {
      if (!('functionResponse' in part) || part.functionResponse.error) continue;
      const { id, name, response } = part.functionResponse;
      if (typeof response === 'string' || told.some((notice) => notice.message.includes(`"${id}"`))) continue;
      const problem = jsonProblem(response, 'the result');
      if (!problem) continue;
      notices.push({
        code: RESULT_DROPPED,
        message: `The stored result of call "${id}" (${name}) cannot be read again: ${describeJsonProblem(problem)}. The model reads that it was dropped; the rest of the session is intact.`,
      });
    }
  }
  return notices.length ? { author: 'system', notices } : undefined;
}
