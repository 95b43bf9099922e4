/** SessionStore in memory: same rules as IndexedDB, gone with the worker. */
import type { AgentEvent, NewEvent } from './event';
import type { Session, SessionInit, SessionStore, SessionSummary } from './store';
import { mergedState, splitDelta } from './state';
import {
  afterAppend,
  newSessionRecord,
  numberEvents,
  sessionExists,
  sessionNotFound,
  summaries,
  unstorableValue,
} from './append-rules';

interface Entry {
  session: Omit<Session, 'state'> & { state: Record<string, unknown> };
  events: AgentEvent[];
}

export class MemorySessionStore implements SessionStore {
  readonly kind = 'memory' as const;
  private readonly sessions = new Map<string, Entry>();
  private readonly appState = new Map<string, Record<string, unknown>>();
  private readonly userState = new Map<string, Record<string, unknown>>();

  async create(init: SessionInit): Promise<Session> {
    const session = newSessionRecord(init);
    if (this.sessions.has(session.id)) throw sessionExists(session.id);
    this.sessions.set(session.id, { session, events: [] });
    return this.view(session);
  }

  async get(id: string): Promise<Session | undefined> {
    const entry = this.sessions.get(id);
    return entry && this.view(entry.session);
  }

  async events(id: string, options: { afterSeq?: number } = {}): Promise<AgentEvent[]> {
    const after = options.afterSeq ?? 0;
    return structuredClone((this.sessions.get(id)?.events ?? []).filter((event) => event.seq > after));
  }

  async recent(id: string, count: number): Promise<{ session: Session; events: AgentEvent[] } | undefined> {
    const entry = this.sessions.get(id);
    if (!entry) return undefined;
    return { session: this.view(entry.session), events: structuredClone(entry.events.slice(-count)) };
  }

  async append(sessionId: string, event: NewEvent): Promise<AgentEvent> {
    return (await this.appendAll(sessionId, [event]))[0]!;
  }

  async appendAll(sessionId: string, events: readonly NewEvent[]): Promise<AgentEvent[]> {
    const entry = this.sessions.get(sessionId);
    if (!entry) throw sessionNotFound(sessionId);
    // Cloned as IndexedDB would, so that callers never share objects with the store; all of them before any is kept.
    const stored = cloneOrRefuse(numberEvents(entry.session, events), 'appending an event');
    const { appName, userId } = entry.session;
    for (const event of stored) {
      const delta = splitDelta(event.actions?.stateDelta);
      if (Object.keys(delta.app).length) this.appState.set(appName, { ...this.appState.get(appName), ...delta.app });
      if (Object.keys(delta.user).length)
        this.userState.set(userKey(appName, userId), {
          ...this.userState.get(userKey(appName, userId)),
          ...delta.user,
        });
    }
    entry.session = afterAppend(entry.session, stored);
    entry.events.push(...stored);
    return structuredClone(stored);
  }

  async list(filter: { appName?: string; userId?: string } = {}): Promise<SessionSummary[]> {
    return summaries(
      [...this.sessions.values()].map((entry) => entry.session),
      filter,
    );
  }

  async delete(id: string): Promise<void> {
    this.sessions.delete(id);
  }

  async put(session: Session, events: AgentEvent[]): Promise<void> {
    if (this.sessions.has(session.id)) throw sessionExists(session.id);
    this.sessions.set(session.id, {
      session: { ...cloneOrRefuse(session, 'importing a session'), state: splitDelta(session.state).session },
      events: cloneOrRefuse(events, 'importing a session'),
    });
  }

  close(): void {}

  private view(session: Entry['session']): Session {
    const state = mergedState(
      this.appState.get(session.appName) ?? {},
      this.userState.get(userKey(session.appName, session.userId)) ?? {},
      session.state,
    );
    return structuredClone({ ...session, state });
  }
}

function cloneOrRefuse<T>(value: T, doing: string): T {
  try {
    return structuredClone(value);
  } catch (error) {
    throw unstorableValue(error, doing);
  }
}

function userKey(appName: string, userId: string): string {
  return JSON.stringify([appName, userId]);
}
