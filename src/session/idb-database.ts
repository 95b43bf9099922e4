/**
 * The one IndexedDB database an app's agents share, typed once. Version 1
 * held sessions and events; version 2 added scoped state (app:, user:), the
 * toolkit graph and the sessions' indexes. An upgrade makes whatever of
 * ours is missing, so a database written by any earlier version (or left
 * half made) opens and keeps its data; a database of the same name that is
 * not ours is left as it is and reported (idb-foreign.ts).
 */
import { openDB, type DBSchema, type IDBPDatabase, type StoreNames } from 'idb';
import { AgentError, messageOf } from '../errors';
import type { AgentEvent } from './event';
import type { Session } from './store';
import { unstorableValue } from './append-rules';
import { foreignDatabaseError, foreignStores, missingStores, STORE_KEYS } from './idb-foreign';

export const DB_VERSION = 2;

/** A session as stored: like Session, but `state` holds the session's own keys only (app: and user: keys live in their own stores). */
export interface StoredSession extends Omit<Session, 'state'> {
  state: Record<string, unknown>;
}

export interface AgentDB extends DBSchema {
  sessions: { key: string; value: StoredSession; indexes: { byUpdated: number; byOwner: [string, string] } };
  /** Keyed [sessionId, seq]: a session's events are one key range, in order. */
  events: { key: [string, number]; value: AgentEvent };
  appState: { key: string; value: { appName: string; state: Record<string, unknown> } };
  userState: { key: [string, string]; value: { appName: string; userId: string; state: Record<string, unknown> } };
  /** Toolkit graphs by name, as plain versioned JSON (src/toolkit persistence). */
  toolkit: { key: string; value: unknown };
}

export type AgentDatabase = IDBPDatabase<AgentDB>;

/** How long an upgrade may wait for other tabs before we say it is blocked. */
const BLOCKED_GRACE_MS = 1500;
/**
 * How long an open may get no answer at all. A request queued behind an
 * earlier one that is itself blocked (a second createAgent while another tab
 * still holds an old version) is never told it is blocked; only time tells.
 */
const NO_ANSWER_MS = 5000;

/** Why our connection was closed under us. */
export type ClosedBy = 'deleted' | 'upgraded';

export async function openAgentDatabase(
  name: string,
  options: { onClose?: (by: ClosedBy) => void } = {},
): Promise<AgentDatabase> {
  if (typeof indexedDB === 'undefined' || indexedDB === null) {
    throw new AgentError(
      'storage-unavailable',
      "IndexedDB is not available here (some private browsing modes remove it). Use createAgent({ storage: 'auto' }) to fall back to memory, or storage: 'memory'.",
    );
  }
  const blockedError = () =>
    new AgentError(
      'storage-blocked',
      `The database "${name}" needs an upgrade, but another tab of this page keeps an older version open. Close the other tabs of this page (or reload them), then try again.`,
    );
  let rejectBlocked!: (error: AgentError) => void;
  const blocked = new Promise<never>((_, reject) => (rejectBlocked = reject));
  blocked.catch(() => undefined);
  let timer = setTimeout(() => rejectBlocked(blockedError()), NO_ANSWER_MS);
  /** Set when the upgrade found a database that is not ours, and left it as it was. */
  let foreign: string | undefined;
  const opening = openDB<AgentDB>(name, DB_VERSION, {
    async upgrade(db, oldVersion, _newVersion, tx) {
      // Another library's database of this name is left as it is (idb-foreign.ts); awaiting its requests keeps tx alive.
      if (oldVersion > 0) foreign = await foreignStores(db, tx);
      if (foreign) {
        // The open rejects, and says why (below); the upgrade's own done promise rejects with it.
        tx.done.catch(() => undefined);
        return tx.abort();
      }
      // Every store of ours it lacks: all of them when new, three from version 1, and what a half-made one missed.
      for (const store of missingStores(db)) {
        const keyPath = STORE_KEYS[store];
        db.createObjectStore(store as StoreNames<AgentDB>, keyPath === null ? {} : { keyPath });
      }
      const sessions = tx.objectStore('sessions');
      if (!sessions.indexNames.contains('byUpdated')) sessions.createIndex('byUpdated', 'updatedAt');
      if (!sessions.indexNames.contains('byOwner')) sessions.createIndex('byOwner', ['appName', 'userId']);
    },
    blocked() {
      // Another tab holds an older version open and did not let go.
      clearTimeout(timer);
      timer = setTimeout(() => rejectBlocked(blockedError()), BLOCKED_GRACE_MS);
    },
    blocking(_current, next, event) {
      // Never be the tab that blocks another's upgrade (or a deletion): let go at once, and say why.
      (event.target as IDBDatabase).close();
      options.onClose?.(next === null ? 'deleted' : 'upgraded');
    },
    terminated() {
      // The browser closed it: the site's data was cleared, or the disk went away.
      options.onClose?.('deleted');
    },
  });
  try {
    const db = await Promise.race([opening, blocked]);
    clearTimeout(timer);
    // At our version already, no upgrade looked: a database someone else made at this version is not ours either.
    const why = await notOurs(db);
    if (why) {
      db.close();
      throw foreignDatabaseError(name, why);
    }
    return db;
  } catch (error) {
    clearTimeout(timer);
    opening.then(
      (db) => db.close(),
      () => undefined,
    );
    if (foreign) throw foreignDatabaseError(name, foreign);
    if (error instanceof AgentError) throw error;
    throw new AgentError(
      'storage-unavailable',
      `IndexedDB could not open "${name}": ${messageOf(error)}. Use storage: 'auto' to fall back to memory.`,
      { cause: error },
    );
  }
}

/** Why an open database is not ours (see idb-foreign.ts), or undefined. */
async function notOurs(db: AgentDatabase): Promise<string | undefined> {
  const missing = missingStores(db);
  if (missing.length === Object.keys(STORE_KEYS).length) return 'it has none of our stores';
  const tx = db.transaction([...db.objectStoreNames] as StoreNames<AgentDB>[], 'readonly');
  const why = await foreignStores(db, tx);
  if (why) return why;
  return missing.length ? `it lacks our stores ${missing.map((store) => `"${store}"`).join(', ')}` : undefined;
}

/** Our connection is gone: what happened, what was and was not kept, and what to do. */
export function closedError(name: string, by: ClosedBy, doing: string, cause?: unknown): AgentError {
  return new AgentError(
    'storage-closed',
    by === 'upgraded'
      ? `Another tab opened a newer version of this page and upgraded the database "${name}", so this page can no longer use it. Reload this page to continue; anything this run could not store is in this error's details.`
      : `The database "${name}" was closed while ${doing} (the site's data was cleared, or another tab deleted it). The next call opens it again; anything this run could not store is in this error's details.`,
    { cause, details: { closedBy: by } },
  );
}

/** IndexedDB failures as AgentErrors that say what to do; quota above all. */
export function storageError(error: unknown, doing: string): AgentError {
  if (error instanceof AgentError) return error;
  const name = (error as { name?: string } | null)?.name;
  if (name === 'QuotaExceededError') {
    return new AgentError(
      'quota-exceeded',
      `The browser's storage quota is full, so ${doing} was not saved (nothing already stored was lost). Free space: delete old sessions with agent.sessions.delete(id), or, without an agent, with deleteSession(id, { dbName }) and listSessions({ dbName }) from inpage-agent.`,
      { cause: error },
    );
  }
  // Bad input, not bad storage: say which rule the value broke.
  if (name === 'DataCloneError') return unstorableValue(error, doing);
  if (name === 'InvalidStateError' || name === 'TransactionInactiveError') {
    return new AgentError(
      'storage-closed',
      `IndexedDB closed while ${doing} (another tab upgraded the database, or the browser is shutting down). Reload the page.`,
      { cause: error },
    );
  }
  return new AgentError('storage-unavailable', `IndexedDB failed while ${doing}: ${messageOf(error)}.`, {
    cause: error,
  });
}
