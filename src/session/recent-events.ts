/**
 * What a run needs of a long session: its latest events. A model's context
 * window holds far fewer than this, and open calls or approvals are always
 * among the latest (each open is repaired when the session is opened), so
 * opening a 10,000-event session does not read all 10,000.
 */
import type { AgentEvent } from './event';
import type { SessionStore } from './store';

export const HISTORY_WINDOW = 1000;

export async function recentEvents(
  store: SessionStore,
  sessionId: string,
  count = HISTORY_WINDOW,
): Promise<AgentEvent[]> {
  const session = await store.get(sessionId);
  if (!session) return [];
  return store.events(sessionId, { afterSeq: Math.max(0, session.lastSeq - count) });
}
