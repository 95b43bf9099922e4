/** SessionStore on IndexedDB through idb. */
import type { AgentEvent, NewEvent } from './event';
import { newId } from './event';
import { openAgentDatabase, storageError, type AgentDatabase, type StoredSession } from './database';
import type { AppendOptions, Session, SessionInit, SessionStore, SessionSummary } from './store';
import { mergedState, splitDelta } from './state';
import { numberEvent, sessionNotFound, titleFrom } from './append-rules';

export async function openIdbSessionStore(options: { dbName: string }): Promise<IdbSessionStore> {
  return new IdbSessionStore(await openAgentDatabase(options.dbName));
}

export class IdbSessionStore implements SessionStore {
  readonly kind = 'indexeddb' as const;

  constructor(readonly db: AgentDatabase) {}

  async create(init: SessionInit): Promise<Session> {
    const now = Date.now();
    const stored: StoredSession = { id: init.id ?? newId('s'), appName: init.appName, userId: init.userId, createdAt: now, updatedAt: now, state: {}, lastSeq: 0 };
    if (init.title) stored.title = init.title;
    try {
      await this.db.add('sessions', stored);
    } catch (error) {
      throw storageError(error, 'creating a session');
    }
    return this.view(stored);
  }

  async get(id: string): Promise<Session | undefined> {
    const stored = await this.db.get('sessions', id);
    return stored && this.view(stored);
  }

  async events(id: string, options: { afterSeq?: number } = {}): Promise<AgentEvent[]> {
    const range = IDBKeyRange.bound([id, (options.afterSeq ?? 0) + 1], [id, Number.MAX_SAFE_INTEGER]);
    return this.db.getAll('events', range);
  }

  async append(sessionId: string, event: NewEvent, options: AppendOptions = {}): Promise<AgentEvent> {
    // The event, the session's counter and every scope its delta touches are
    // written in one transaction: after any interruption the stored events are
    // a prefix of what happened and the state is the fold of their deltas.
    const tx = this.db.transaction(['sessions', 'events', 'appState', 'userState'], 'readwrite', { durability: options.durability ?? 'default' });
    try {
      const session = await tx.objectStore('sessions').get(sessionId);
      if (!session) throw sessionNotFound(sessionId);
      const stored = numberEvent(session, event);
      void tx.objectStore('events').add(stored);
      const delta = splitDelta(stored.actions?.stateDelta);
      if (Object.keys(delta.app).length) {
        const app = (await tx.objectStore('appState').get(session.appName)) ?? { appName: session.appName, state: {} };
        void tx.objectStore('appState').put({ ...app, state: { ...app.state, ...delta.app } });
      }
      if (Object.keys(delta.user).length) {
        const user = (await tx.objectStore('userState').get([session.appName, session.userId])) ?? { appName: session.appName, userId: session.userId, state: {} };
        void tx.objectStore('userState').put({ ...user, state: { ...user.state, ...delta.user } });
      }
      const title = session.title ?? titleFrom(stored);
      void tx.objectStore('sessions').put({
        ...session,
        ...(title ? { title } : {}),
        state: { ...session.state, ...delta.session },
        lastSeq: stored.seq,
        updatedAt: stored.timestamp,
      });
      await tx.done;
      return stored;
    } catch (error) {
      tx.done.catch(() => undefined);
      try {
        tx.abort();
      } catch {
        // Already finished or aborted by the browser.
      }
      throw storageError(error, 'appending an event');
    }
  }

  async list(filter: { appName?: string; userId?: string } = {}): Promise<SessionSummary[]> {
    const all = filter.appName && filter.userId ? await this.db.getAllFromIndex('sessions', 'byOwner', [filter.appName, filter.userId]) : await this.db.getAll('sessions');
    return all
      .filter((s) => (!filter.appName || s.appName === filter.appName) && (!filter.userId || s.userId === filter.userId))
      .sort((a, b) => b.updatedAt - a.updatedAt)
      .map(({ id, title, createdAt, updatedAt, lastSeq }) => ({ id, title, createdAt, updatedAt, eventCount: lastSeq }));
  }

  async delete(id: string): Promise<void> {
    const tx = this.db.transaction(['sessions', 'events'], 'readwrite');
    void tx.objectStore('sessions').delete(id);
    void tx.objectStore('events').delete(IDBKeyRange.bound([id, 0], [id, Number.MAX_SAFE_INTEGER]));
    await tx.done;
  }

  async put(session: Session, events: AgentEvent[]): Promise<void> {
    // An import lands whole or not at all.
    const tx = this.db.transaction(['sessions', 'events'], 'readwrite');
    try {
      const { state, ...head } = session;
      void tx.objectStore('sessions').add({ ...head, state: splitDelta(state).session });
      for (const event of events) void tx.objectStore('events').add(event);
      await tx.done;
    } catch (error) {
      tx.done.catch(() => undefined);
      throw storageError(error, 'importing a session');
    }
  }

  close(): void {
    this.db.close();
  }

  private async view(stored: StoredSession): Promise<Session> {
    const [app, user] = await Promise.all([this.db.get('appState', stored.appName), this.db.get('userState', [stored.appName, stored.userId])]);
    return { ...stored, state: mergedState(app?.state ?? {}, user?.state ?? {}, stored.state) };
  }
}
