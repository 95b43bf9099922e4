/**
 * What a run needs of a long session: its latest events. A model's context
 * window holds far fewer than this, and what a run must find whatever its
 * age (calls a crash left open, long-running calls) is kept on the session
 * record (open-calls.ts), so opening a 10,000-event session does not read
 * all 10,000. The one thing older than the window that a run must read is
 * a turn that waits for a person: its model event, requests and decisions
 * (open-approval.ts), which a turn of thousands of calls decided one by one
 * pushes out of the window.
 */
import { oldestAskingTurn } from './call-ledger';
import type { AgentEvent } from './event';
import type { Session, SessionStore } from './store';

export const HISTORY_WINDOW = 1000;

/** The session and its latest events, in one read (two when a waiting turn is older); undefined when there is no such session. */
export async function readRecent(
  store: SessionStore,
  sessionId: string,
): Promise<{ session: Session; events: AgentEvent[] } | undefined> {
  const recent = await store.recent(sessionId, HISTORY_WINDOW);
  const first = recent?.events[0]?.seq;
  if (!recent || first === undefined) return recent;
  const asking = oldestAskingTurn(recent.session.openCalls ?? {});
  if (asking === undefined || asking >= first) return recent;
  return (await store.recent(sessionId, recent.session.lastSeq - asking + 1)) ?? recent;
}

export async function recentEvents(store: SessionStore, sessionId: string): Promise<AgentEvent[]> {
  return (await readRecent(store, sessionId))?.events ?? [];
}
