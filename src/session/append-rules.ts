/**
 * What both stores do to an event as it is appended, so that memory and
 * IndexedDB agree: refuse partial events, number it, drop temp: keys from its
 * delta, and name an untitled session after its first user words.
 */
import { AgentError, messageOf } from '../errors';
import { newId, typed, type AgentEvent, type NewEvent } from './event';
import { trackOpenCalls } from './open-calls';
import { textOf } from './parts';
import { splitDelta, storableDelta } from './state';
import type { Session, SessionInit, SessionSummary } from './store';

export interface SessionHead {
  id: string;
  title?: string;
  lastSeq: number;
}

function numberEvent(session: SessionHead, event: NewEvent): AgentEvent {
  if (event.partial) {
    throw new AgentError(
      'invalid-options',
      'Partial (streamed) events are never stored; append the complete event instead.',
    );
  }
  // Its type from its fields, whatever the writer (an import) claimed.
  const stored = typed({ ...event, sessionId: session.id, seq: session.lastSeq + 1 });
  const delta = storableDelta(event.actions?.stateDelta);
  if (event.actions?.stateDelta) {
    const { stateDelta: _dropped, ...actions } = event.actions;
    stored.actions = delta ? { ...actions, stateDelta: delta } : actions;
    if (!delta && Object.keys(actions).length === 0) delete stored.actions;
  }
  return stored;
}

/** A new session's record, as both stores keep it. */
export function newSessionRecord(init: SessionInit): Omit<Session, 'state'> & { state: Record<string, unknown> } {
  const now = Date.now();
  return {
    id: init.id ?? newId('s'),
    appName: init.appName,
    userId: init.userId,
    ...(init.title ? { title: init.title } : {}),
    createdAt: now,
    updatedAt: now,
    state: {},
    lastSeq: 0,
    openCalls: {},
  };
}

/** The events numbered in order after the session's last. */
export function numberEvents(session: SessionHead, events: readonly NewEvent[]): AgentEvent[] {
  return events.map((event, i) => numberEvent({ ...session, lastSeq: session.lastSeq + i }, event));
}

/**
 * A session record after `stored` (numbered in order) were appended, with
 * their session-scoped deltas applied. Both stores write this, for one event
 * or for many in one step (a batch costs its events, not its events times
 * the session's open calls).
 */
export function afterAppend<S extends Omit<Session, 'state'> & { state: Record<string, unknown> }>(
  session: S,
  stored: readonly AgentEvent[],
): S {
  const last = stored.at(-1);
  if (!last) return session;
  let title = session.title;
  let state = session.state;
  for (const event of stored) {
    title ??= titleFrom(event);
    const delta = splitDelta(event.actions?.stateDelta).session;
    if (Object.keys(delta).length) state = { ...state, ...delta };
  }
  return {
    ...session,
    ...(title ? { title } : {}),
    state,
    lastSeq: last.seq,
    updatedAt: last.timestamp,
    ...(session.openCalls && { openCalls: trackOpenCalls(session.openCalls, stored) }),
  };
}

/** What list() shows of sessions: those of the filter, newest first. */
export function summaries(
  sessions: readonly Omit<Session, 'state'>[],
  filter: { appName?: string; userId?: string } = {},
): SessionSummary[] {
  return sessions
    .filter((s) => (!filter.appName || s.appName === filter.appName) && (!filter.userId || s.userId === filter.userId))
    .sort((a, b) => b.updatedAt - a.updatedAt)
    .map(({ id, title, createdAt, updatedAt, lastSeq }) => ({ id, title, createdAt, updatedAt, eventCount: lastSeq }));
}

const TITLE_LENGTH = 60;

function titleFrom(event: AgentEvent): string | undefined {
  if (event.author !== 'user' || event.content?.role !== 'user') return undefined;
  const text = textOf(event.content.parts, ' ').replace(/\s+/g, ' ').trim();
  if (!text) return undefined;
  return text.length > TITLE_LENGTH ? `${text.slice(0, TITLE_LENGTH - 1)}…` : text;
}

export function sessionNotFound(id: string): AgentError {
  return new AgentError(
    'session-not-found',
    `There is no session "${id}" in this store. List them with agent.sessions.list(), or create an agent without sessionId to start a new one.`,
  );
}

export function sessionExists(id: string): AgentError {
  return new AgentError(
    'invalid-options',
    `A session "${id}" already exists in this store. Open it with createAgent({ sessionId }) instead of creating it, or choose another id.`,
  );
}

/** A DataCloneError from either store: the caller's data, not the storage, is at fault. */
export function unstorableValue(error: unknown, doing: string): AgentError {
  return new AgentError(
    'invalid-options',
    `Nothing was saved while ${doing}: the data holds a value the browser cannot store (a function, a DOM node, a class instance…): ${messageOf(error)}. Keep events and state deltas to plain data (strings, numbers, arrays, objects).`,
    { cause: error },
  );
}
