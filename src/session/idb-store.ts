/** SessionStore on IndexedDB through idb. */
import type { AgentEvent, NewEvent } from './event';
import { newId } from './event';
import { openAgentDatabase, storageError, type AgentDatabase, type StoredSession } from './database';
import type { AppendOptions, Session, SessionInit, SessionStore, SessionSummary } from './store';
import { mergedState, splitDelta } from './state';
import { numberEvent, sessionExists, sessionNotFound, titleFrom } from './append-rules';

export async function openIdbSessionStore(options: { dbName: string }): Promise<IdbSessionStore> {
  return new IdbSessionStore(await openAgentDatabase(options.dbName));
}

export class IdbSessionStore implements SessionStore {
  readonly kind = 'indexeddb' as const;

  constructor(readonly db: AgentDatabase) {}

  async create(init: SessionInit): Promise<Session> {
    const now = Date.now();
    const stored: StoredSession = {
      id: init.id ?? newId('s'),
      appName: init.appName,
      userId: init.userId,
      createdAt: now,
      updatedAt: now,
      state: {},
      lastSeq: 0,
    };
    if (init.title) stored.title = init.title;
    try {
      await this.db.add('sessions', stored);
    } catch (error) {
      if ((error as { name?: string }).name === 'ConstraintError') throw sessionExists(stored.id);
      throw storageError(error, 'creating a session');
    }
    return (await this.get(stored.id))!;
  }

  async get(id: string): Promise<Session | undefined> {
    // One read transaction: the session and the app:/user: scopes it shows are one snapshot.
    try {
      const tx = this.db.transaction(['sessions', 'appState', 'userState'], 'readonly');
      const stored = await tx.objectStore('sessions').get(id);
      if (!stored) return undefined;
      const [app, user] = await Promise.all([
        tx.objectStore('appState').get(stored.appName),
        tx.objectStore('userState').get([stored.appName, stored.userId]),
      ]);
      return { ...stored, state: mergedState(app?.state ?? {}, user?.state ?? {}, stored.state) };
    } catch (error) {
      throw storageError(error, 'reading a session');
    }
  }

  async events(id: string, options: { afterSeq?: number } = {}): Promise<AgentEvent[]> {
    const range = IDBKeyRange.bound([id, (options.afterSeq ?? 0) + 1], [id, Number.MAX_SAFE_INTEGER]);
    try {
      return await this.db.getAll('events', range);
    } catch (error) {
      throw storageError(error, "reading a session's events");
    }
  }

  async append(sessionId: string, event: NewEvent, options: AppendOptions = {}): Promise<AgentEvent> {
    // The event, the session's counter and every scope its delta touches are
    // written in one transaction: after any interruption the stored events are
    // a prefix of what happened and the state is the fold of their deltas.
    const tx = this.db.transaction(['sessions', 'events', 'appState', 'userState'], 'readwrite', {
      durability: options.durability ?? 'default',
    });
    const writes = new UnawaitedWrites();
    try {
      const session = await tx.objectStore('sessions').get(sessionId);
      if (!session) throw sessionNotFound(sessionId);
      const stored = numberEvent(session, event);
      writes.track(tx.objectStore('events').add(stored));
      const delta = splitDelta(stored.actions?.stateDelta);
      if (Object.keys(delta.app).length) {
        const app = (await tx.objectStore('appState').get(session.appName)) ?? { appName: session.appName, state: {} };
        writes.track(tx.objectStore('appState').put({ ...app, state: { ...app.state, ...delta.app } }));
      }
      if (Object.keys(delta.user).length) {
        const user = (await tx.objectStore('userState').get([session.appName, session.userId])) ?? {
          appName: session.appName,
          userId: session.userId,
          state: {},
        };
        writes.track(tx.objectStore('userState').put({ ...user, state: { ...user.state, ...delta.user } }));
      }
      const title = session.title ?? titleFrom(stored);
      writes.track(
        tx.objectStore('sessions').put({
          ...session,
          ...(title ? { title } : {}),
          state: { ...session.state, ...delta.session },
          lastSeq: stored.seq,
          updatedAt: stored.timestamp,
        }),
      );
      await tx.done;
      return stored;
    } catch (error) {
      tx.done.catch(() => undefined);
      try {
        tx.abort();
      } catch {
        // Already finished or aborted by the browser.
      }
      throw storageError(writes.first ?? error, 'appending an event');
    }
  }

  async list(filter: { appName?: string; userId?: string } = {}): Promise<SessionSummary[]> {
    let all: StoredSession[];
    try {
      all =
        filter.appName && filter.userId
          ? await this.db.getAllFromIndex('sessions', 'byOwner', [filter.appName, filter.userId])
          : await this.db.getAll('sessions');
    } catch (error) {
      throw storageError(error, 'listing sessions');
    }
    return all
      .filter(
        (s) => (!filter.appName || s.appName === filter.appName) && (!filter.userId || s.userId === filter.userId),
      )
      .sort((a, b) => b.updatedAt - a.updatedAt)
      .map(({ id, title, createdAt, updatedAt, lastSeq }) => ({
        id,
        title,
        createdAt,
        updatedAt,
        eventCount: lastSeq,
      }));
  }

  async delete(id: string): Promise<void> {
    const writes = new UnawaitedWrites();
    try {
      const tx = this.db.transaction(['sessions', 'events'], 'readwrite');
      writes.track(tx.objectStore('sessions').delete(id));
      writes.track(tx.objectStore('events').delete(IDBKeyRange.bound([id, 0], [id, Number.MAX_SAFE_INTEGER])));
      await tx.done;
    } catch (error) {
      throw storageError(writes.first ?? error, 'deleting a session');
    }
  }

  async put(session: Session, events: AgentEvent[]): Promise<void> {
    // An import lands whole or not at all.
    const tx = this.db.transaction(['sessions', 'events'], 'readwrite');
    const writes = new UnawaitedWrites();
    try {
      const { state, ...head } = session;
      writes.track(tx.objectStore('sessions').add({ ...head, state: splitDelta(state).session }));
      for (const event of events) writes.track(tx.objectStore('events').add(event));
      await tx.done;
    } catch (error) {
      tx.done.catch(() => undefined);
      const cause = writes.first ?? error;
      if ((cause as { name?: string }).name === 'ConstraintError') throw sessionExists(session.id);
      throw storageError(cause, 'importing a session');
    }
  }

  close(): void {
    this.db.close();
  }
}

/**
 * Requests a transaction issues without awaiting each one. When one fails the
 * browser aborts the transaction and rejects every request: keep those
 * rejections from surfacing as unhandled, and remember the first (the real
 * cause, e.g. ConstraintError or QuotaExceededError; the rest are AbortErrors).
 */
class UnawaitedWrites {
  first: unknown;

  track(request: Promise<unknown>): void {
    request.catch((error: unknown) => {
      this.first ??= error;
    });
  }
}
