/**
 * What a run needs of a long session: its latest events. A model's context
 * window holds far fewer than this, and what a run must find whatever its
 * age (calls a crash left open, long-running calls) is kept on the session
 * record (open-calls.ts), so opening a 10,000-event session does not read
 * all 10,000.
 */
import type { AgentEvent } from './event';
import type { Session, SessionStore } from './store';

export const HISTORY_WINDOW = 1000;

/** The session and its latest events, in one read; undefined when there is no such session. */
export function readRecent(
  store: SessionStore,
  sessionId: string,
): Promise<{ session: Session; events: AgentEvent[] } | undefined> {
  return store.recent(sessionId, HISTORY_WINDOW);
}

export async function recentEvents(store: SessionStore, sessionId: string): Promise<AgentEvent[]> {
  return (await readRecent(store, sessionId))?.events ?? [];
}
