/**
 * A crash, a reload or a killed worker between a function call and its
 * response leaves the call open. Before a session runs again (under its lock,
 * so no live run can own the call), each such call is answered 'interrupted',
 * so the history a model sees is well formed. Tools are never re-run on their
 * own. Calls that wait on purpose (for an approval, or long-running ones) are
 * left alone.
 */
import { INTERRUPTED, isInterruption } from './call-ledger';
import type { AgentEvent, NewEvent } from './event';
import { openCallsOf, waitsOnPurpose, type OpenCall } from './open-calls';
import type { Session, SessionStore } from './store';

export interface InterruptedCall extends OpenCall {
  id: string;
}

/** The open calls of a session that nothing waits for; found without reading its log (but for sessions older than open-call tracking). */
export async function interruptedCalls(store: SessionStore, session: Session): Promise<InterruptedCall[]> {
  const open = session.openCalls ?? openCallsOf(await store.events(session.id));
  const waits = waitsOnPurpose(open);
  return Object.entries(open)
    .filter(([, call]) => !waits(call))
    .map(([id, call]) => ({ id, ...call }));
}

/** One 'interrupted' answer per model event that made the calls, in the order the calls were made. */
export function interruptedAnswers(
  sessionId: string,
  calls: readonly InterruptedCall[],
): Omit<NewEvent, 'id' | 'timestamp'>[] {
  const bySeq = new Map<number, InterruptedCall[]>();
  for (const call of [...calls].sort((a, b) => a.seq - b.seq)) {
    const group = bySeq.get(call.seq);
    if (group) group.push(call);
    else bySeq.set(call.seq, [call]);
  }
  return [...bySeq.values()].map((group) => ({
    sessionId,
    invocationId: group[0]!.invocationId,
    author: group[0]!.author,
    content: {
      role: 'tool' as const,
      parts: group.map((call) => ({
        functionResponse: { id: call.id, name: call.name, response: null, error: INTERRUPTED },
      })),
    },
  }));
}

/** Whether the event is a repair's answers: it says that calls were cut off, not that their run went on or ended. */
export function isInterruptedAnswer(event: AgentEvent): boolean {
  if (event.content?.role !== 'tool' || event.content.parts.length === 0) return false;
  return event.content.parts.every((part) => 'functionResponse' in part && isInterruption(part.functionResponse));
}
