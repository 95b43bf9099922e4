/**
 * SessionStore on IndexedDB through idb.
 *
 * The log is the truth; a session's record is a checkpoint of it. An append
 * writes its event (and the app:/user: scopes its delta touches) in one
 * transaction, and the record with it only now and then: every
 * CHECKPOINT_EVERY events, when a run ends, when the session gets its title,
 * when shared state changes. Reading a session folds the few events after its
 * checkpoint into it, so after any interruption the session is exactly the
 * fold of a prefix of its events, and a durable step costs one write.
 */
import { AgentError } from '../errors';
import { typed, type AgentEvent, type NewEvent } from './event';
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
import { afterAppend, newSessionRecord, numberEvents, sessionExists, sessionNotFound, summaries } from './append-rules';

export async function openIdbSessionStore(options: { dbName: string }): Promise<IdbSessionStore> {
  const store = new IdbSessionStore(options.dbName);
  await store.connection();
  return store;
}

class IdbSessionStore implements SessionStore {
  readonly kind = 'indexeddb' as const;
  private current?: AgentDatabase;
  /** Set when the connection was closed under us; a deleted database is opened again on the next call. */
  private closedBy?: ClosedBy;
  /** The database was deleted under us and opened again empty: a session that is gone was lost, not never made. */
  private reopenedEmpty = false;
  /**
   * Each session this store read or wrote last, folded to its last event, and
   * the seq of its stored checkpoint: appends number from it without reading.
   * Another writer in between is noticed by the event's key (its seq is taken).
   */
  private readonly heads = new Map<string, Head>();

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
        this.heads.clear();
      },
    });
    this.closedBy = undefined;
    if (deleted) this.reopenedEmpty = true;
    return this.current;
  }

  async create(init: SessionInit): Promise<Session> {
    const stored: StoredSession = newSessionRecord(init);
    try {
      await (await this.connection()).add('sessions', stored);
      this.heads.set(stored.id, { head: stored, checkpointSeq: 0 });
      this.reopenedEmpty = false;
    } catch (error) {
      if ((error as { name?: string }).name === 'ConstraintError') throw sessionExists(stored.id);
      throw this.storageError(error, 'creating a session');
    }
    return (await this.get(stored.id))!;
  }

  async get(id: string): Promise<Session | undefined> {
    // One read transaction: the checkpoint, the events after it and the app:/user: scopes are one snapshot.
    try {
      const tx = (await this.connection()).transaction(['sessions', 'events', 'appState', 'userState'], 'readonly');
      const record = await tx.objectStore('sessions').get(id);
      if (!record) return undefined;
      const [tail, app, user] = await Promise.all([
        tx.objectStore('events').getAll(after(id, record.lastSeq)),
        tx.objectStore('appState').get(record.appName),
        tx.objectStore('userState').get([record.appName, record.userId]),
      ]);
      const head = fold(record, tail);
      this.heads.set(id, { head, checkpointSeq: record.lastSeq });
      return { ...head, state: mergedState(app?.state ?? {}, user?.state ?? {}, head.state) };
    } catch (error) {
      throw this.storageError(error, 'reading a session');
    }
  }

  async recent(id: string, count: number): Promise<{ session: Session; events: AgentEvent[] } | undefined> {
    // One read transaction, one read of the log: the latest events hold the ones after the checkpoint, which fold into it.
    try {
      const tx = (await this.connection()).transaction(['sessions', 'events', 'appState', 'userState'], 'readonly');
      const record = await tx.objectStore('sessions').get(id);
      if (!record) return undefined;
      const [latest, app, user] = await Promise.all([
        tx.objectStore('events').getAll(after(id, Math.max(0, record.lastSeq - count))),
        tx.objectStore('appState').get(record.appName),
        tx.objectStore('userState').get([record.appName, record.userId]),
      ]);
      const head = fold(
        record,
        latest.filter((event) => event.seq > record.lastSeq),
      );
      this.heads.set(id, { head, checkpointSeq: record.lastSeq });
      return {
        session: { ...head, state: mergedState(app?.state ?? {}, user?.state ?? {}, head.state) },
        events: latest.slice(-count).map(typed),
      };
    } catch (error) {
      throw this.storageError(error, 'reading a session');
    }
  }

  async events(id: string, options: { afterSeq?: number } = {}): Promise<AgentEvent[]> {
    const range = IDBKeyRange.bound([id, (options.afterSeq ?? 0) + 1], [id, Number.MAX_SAFE_INTEGER]);
    try {
      // Events written before they had a type get it here.
      return (await (await this.connection()).getAll('events', range)).map(typed);
    } catch (error) {
      throw this.storageError(error, "reading a session's events");
    }
  }

  async append(sessionId: string, event: NewEvent, options: AppendOptions = {}): Promise<AgentEvent> {
    return (await this.appendAll(sessionId, [event], options))[0]!;
  }

  async appendAll(sessionId: string, events: readonly NewEvent[], options: AppendOptions = {}): Promise<AgentEvent[]> {
    const db = await this.connection().catch((error: unknown) => {
      throw this.storageError(error, 'appending an event');
    });
    // Another writer came first: number again from what a fresh read says.
    for (let attempt = 0; attempt < 3; attempt++) {
      const known = attempt === 0 ? this.heads.get(sessionId) : undefined;
      const stored = await this.appendOnce(db, sessionId, events, options, known);
      if (stored) return stored;
    }
    throw new AgentError(
      'session-busy',
      `Session ${sessionId} kept changing under this append (another tab or agent writes to it at the same time). Run one agent per session at a time (runs take its lock), then try again.`,
    );
  }

  private async appendOnce(
    db: AgentDatabase,
    sessionId: string,
    events: readonly NewEvent[],
    options: AppendOptions,
    known: Head | undefined,
  ): Promise<AgentEvent[] | undefined> {
    // Undefined when another writer came first (its seq was taken, its checkpoint moved): nothing was written.
    const { head, checkpointSeq } = known ?? (await this.readHead(db, sessionId));
    const stored = numberEvents(head, events);
    const deltas = stored.map((event) => splitDelta(event.actions?.stateDelta));
    const appDelta = Object.assign({}, ...deltas.map((delta) => delta.app)) as Record<string, unknown>;
    const userDelta = Object.assign({}, ...deltas.map((delta) => delta.user)) as Record<string, unknown>;
    const app = Object.keys(appDelta).length > 0;
    const user = Object.keys(userDelta).length > 0;
    const next = afterAppend(head, stored);
    const checkpoint =
      app ||
      user ||
      stored.some((event) => event.endReason !== undefined) ||
      next.title !== head.title ||
      next.lastSeq - checkpointSeq >= CHECKPOINT_EVERY;
    const scopes: ('sessions' | 'events' | 'appState' | 'userState')[] = ['events'];
    if (checkpoint) scopes.push('sessions');
    if (app) scopes.push('appState');
    if (user) scopes.push('userState');
    const tx = db.transaction(scopes, 'readwrite', { durability: options.durability ?? 'default' });
    // Awaited below when all goes well; an abort (ours, or the browser's after a failed request) is handled there.
    tx.done.catch(() => undefined);
    const writes = new UnawaitedWrites();
    try {
      // The checkpoint replaces the one we know, or none: never a session that went away or moved on.
      const replaced = checkpoint ? tx.objectStore('sessions').get(sessionId) : undefined;
      // When an earlier request fails the transaction, nothing awaits this read: its AbortError is expected.
      replaced?.catch(() => undefined);
      for (const event of stored) writes.track(tx.objectStore('events').add(event));
      if (checkpoint) writes.track(tx.objectStore('sessions').put(next));
      if (app) {
        const scope = (await tx.objectStore('appState').get(head.appName)) ?? { appName: head.appName, state: {} };
        writes.track(tx.objectStore('appState').put({ ...scope, state: { ...scope.state, ...appDelta } }));
      }
      if (user) {
        const key: [string, string] = [head.appName, head.userId];
        const scope = (await tx.objectStore('userState').get(key)) ?? {
          appName: head.appName,
          userId: head.userId,
          state: {},
        };
        writes.track(tx.objectStore('userState').put({ ...scope, state: { ...scope.state, ...userDelta } }));
      }
      if (replaced && (await replaced)?.lastSeq !== checkpointSeq) throw new StaleHead();
      await tx.done;
      this.heads.set(sessionId, { head: next, checkpointSeq: checkpoint ? next.lastSeq : checkpointSeq });
      return stored;
    } catch (error) {
      this.heads.delete(sessionId);
      tx.done.catch(() => undefined);
      try {
        tx.abort();
      } catch {
        // Already finished or aborted by the browser.
      }
      const cause = writes.first ?? error;
      // Our seq was taken, or the checkpoint moved: another writer came first. A fresh read knows better.
      if (cause instanceof StaleHead || (cause as { name?: string }).name === 'ConstraintError') return undefined;
      throw this.storageError(cause, 'appending an event');
    }
  }

  /** A session's checkpoint folded with the events after it. */
  private async readHead(db: AgentDatabase, sessionId: string): Promise<Head> {
    let record: StoredSession | undefined;
    let tail: AgentEvent[];
    try {
      const tx = db.transaction(['sessions', 'events'], 'readonly');
      record = await tx.objectStore('sessions').get(sessionId);
      tail = record ? await tx.objectStore('events').getAll(after(sessionId, record.lastSeq)) : [];
    } catch (error) {
      throw this.storageError(error, 'appending an event');
    }
    if (!record && this.reopenedEmpty) throw closedError(this.dbName, 'deleted', 'appending an event');
    if (!record) throw sessionNotFound(sessionId);
    return { head: fold(record, tail), checkpointSeq: record.lastSeq };
  }

  async list(filter: { appName?: string; userId?: string } = {}): Promise<SessionSummary[]> {
    let all: StoredSession[];
    try {
      const tx = (await this.connection()).transaction(['sessions', 'events'], 'readonly');
      const sessions = tx.objectStore('sessions');
      const records =
        filter.appName && filter.userId
          ? await sessions.index('byOwner').getAll([filter.appName, filter.userId])
          : await sessions.getAll();
      // A checkpoint may be a few events behind: each session's last event says how many it has and when.
      all = await Promise.all(
        records.map(async (record) => {
          const last = await tx.objectStore('events').openCursor(after(record.id, record.lastSeq), 'prev');
          return last ? { ...record, lastSeq: last.value.seq, updatedAt: last.value.timestamp } : record;
        }),
      );
    } catch (error) {
      throw this.storageError(error, 'listing sessions');
    }
    return summaries(all, filter);
  }

  async delete(id: string): Promise<void> {
    this.heads.delete(id);
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
      // A write that throws at once (a value IndexedDB cannot clone) leaves the transaction going: it would commit the rest.
      abortQuietly(tx);
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

/** Aborts a transaction that may have ended already (committed, or aborted by the failed request). */
function abortQuietly(tx: { abort(): void }): void {
  try {
    tx.abort();
  } catch {
    // It had ended: nothing was committed by a failed write, and a successful one is not here.
  }
}

/** How many events may follow a session's stored checkpoint before it is written again. */
const CHECKPOINT_EVERY = 16;

interface Head {
  /** The session as of its last event. */
  head: StoredSession;
  /** The seq of the checkpoint stored in the sessions store. */
  checkpointSeq: number;
}

/** A checkpoint and the events after it, as one record. */
function fold(record: StoredSession, tail: readonly AgentEvent[]): StoredSession {
  return afterAppend(record, tail);
}

/** A session's events after `seq`. */
function after(sessionId: string, seq: number): IDBKeyRange {
  return IDBKeyRange.bound([sessionId, seq + 1], [sessionId, Number.MAX_SAFE_INTEGER]);
}

/** The checkpoint a transaction was about to replace is not the one we knew. */
class StaleHead extends Error {}

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
