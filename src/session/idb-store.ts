/** SessionStore on IndexedDB through idb. */
import { AgentError } from '../errors';
import type { AgentEvent, NewEvent } from './event';
import { newId } from './event';
import {
  closedError,
  openAgentDatabase,
  storageError as mapStorageError,
  type AgentDatabase,
  type ClosedBy,
  type StoredSession,
} from './idb-database';
import type { AppendOptions, Session, SessionInit, SessionStore, SessionSummary } from './store';
import { mergedState, splitDelta } from './state';
import { afterAppend, numberEvent, sessionExists, sessionNotFound, summaries } from './append-rules';

export async function openIdbSessionStore(options: { dbName: string }): Promise<IdbSessionStore> {
  const store = new IdbSessionStore(options.dbName);
  await store.connection();
  return store;
}

export class IdbSessionStore implements SessionStore {
  readonly kind = 'indexeddb' as const;
  private current?: AgentDatabase;
  /** Set when the connection was closed under us; a deleted database is opened again on the next call. */
  private closedBy?: ClosedBy;
  /** The database was deleted under us and opened again empty: a session that is gone was lost, not never made. */
  private reopenedEmpty = false;

  constructor(readonly dbName: string) {}

  /** The open connection (for tests and benchmarks that reach below the store). */
  get db(): AgentDatabase {
    if (!this.current) throw closedError(this.dbName, this.closedBy ?? 'deleted', 'using the database');
    return this.current;
  }

  /** The connection, opened again after the browser or another tab closed it, unless a newer version took the database. */
  async connection(): Promise<AgentDatabase> {
    if (this.current && !this.closedBy) return this.current;
    if (this.closedBy === 'upgraded') throw closedError(this.dbName, 'upgraded', 'using the database');
    const deleted = this.closedBy === 'deleted';
    this.current = await openAgentDatabase(this.dbName, {
      onClose: (by) => {
        this.closedBy = by;
        this.current = undefined;
      },
    });
    this.closedBy = undefined;
    if (deleted) this.reopenedEmpty = true;
    return this.current;
  }

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
      openCalls: {},
    };
    if (init.title) stored.title = init.title;
    try {
      await (await this.connection()).add('sessions', stored);
      this.reopenedEmpty = false;
    } catch (error) {
      if ((error as { name?: string }).name === 'ConstraintError') throw sessionExists(stored.id);
      throw this.storageError(error, 'creating a session');
    }
    return (await this.get(stored.id))!;
  }

  async get(id: string): Promise<Session | undefined> {
    // One read transaction: the session and the app:/user: scopes it shows are one snapshot.
    try {
      const tx = (await this.connection()).transaction(['sessions', 'appState', 'userState'], 'readonly');
      const stored = await tx.objectStore('sessions').get(id);
      if (!stored) return undefined;
      const [app, user] = await Promise.all([
        tx.objectStore('appState').get(stored.appName),
        tx.objectStore('userState').get([stored.appName, stored.userId]),
      ]);
      return { ...stored, state: mergedState(app?.state ?? {}, user?.state ?? {}, stored.state) };
    } catch (error) {
      throw this.storageError(error, 'reading a session');
    }
  }

  async events(id: string, options: { afterSeq?: number } = {}): Promise<AgentEvent[]> {
    const range = IDBKeyRange.bound([id, (options.afterSeq ?? 0) + 1], [id, Number.MAX_SAFE_INTEGER]);
    try {
      return await (await this.connection()).getAll('events', range);
    } catch (error) {
      throw this.storageError(error, "reading a session's events");
    }
  }

  async append(sessionId: string, event: NewEvent, options: AppendOptions = {}): Promise<AgentEvent> {
    // The event, the session's counter and every scope its delta touches are
    // written in one transaction: after any interruption the stored events are
    // a prefix of what happened and the state is the fold of their deltas.
    const db = await this.connection().catch((error: unknown) => {
      throw this.storageError(error, 'appending an event');
    });
    const tx = db.transaction(['sessions', 'events', 'appState', 'userState'], 'readwrite', {
      durability: options.durability ?? 'default',
    });
    const writes = new UnawaitedWrites();
    try {
      const session = await tx.objectStore('sessions').get(sessionId);
      if (!session && this.reopenedEmpty) throw closedError(this.dbName, 'deleted', 'appending an event');
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
      writes.track(tx.objectStore('sessions').put(afterAppend(session, stored, delta.session)));
      await tx.done;
      return stored;
    } catch (error) {
      tx.done.catch(() => undefined);
      try {
        tx.abort();
      } catch {
        // Already finished or aborted by the browser.
      }
      throw this.storageError(writes.first ?? error, 'appending an event');
    }
  }

  async list(filter: { appName?: string; userId?: string } = {}): Promise<SessionSummary[]> {
    let all: StoredSession[];
    try {
      const db = await this.connection();
      all =
        filter.appName && filter.userId
          ? await db.getAllFromIndex('sessions', 'byOwner', [filter.appName, filter.userId])
          : await db.getAll('sessions');
    } catch (error) {
      throw this.storageError(error, 'listing sessions');
    }
    return summaries(all, filter);
  }

  async delete(id: string): Promise<void> {
    const writes = new UnawaitedWrites();
    try {
      const tx = (await this.connection()).transaction(['sessions', 'events'], 'readwrite');
      writes.track(tx.objectStore('sessions').delete(id));
      writes.track(tx.objectStore('events').delete(IDBKeyRange.bound([id, 0], [id, Number.MAX_SAFE_INTEGER])));
      await tx.done;
    } catch (error) {
      throw this.storageError(writes.first ?? error, 'deleting a session');
    }
  }

  async put(session: Session, events: AgentEvent[]): Promise<void> {
    // An import lands whole or not at all.
    const tx = (await this.connection()).transaction(['sessions', 'events'], 'readwrite');
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
      throw this.storageError(cause, 'importing a session');
    }
  }

  /** An IndexedDB failure as an AgentError; a connection closed under us says by whom. */
  private storageError(error: unknown, doing: string) {
    const name = (error as { name?: string } | null)?.name;
    if (this.closedBy || name === 'InvalidStateError' || name === 'TransactionInactiveError') {
      if (error instanceof AgentError && error.code === 'storage-closed') return error;
      return closedError(this.dbName, this.closedBy ?? 'deleted', doing, error);
    }
    return mapStorageError(error, doing);
  }

  close(): void {
    this.current?.close();
    this.current = undefined;
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
