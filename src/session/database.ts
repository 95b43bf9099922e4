/**
 * The one IndexedDB database an app's agents share, typed once. Version 1
 * held sessions and events; version 2 added scoped state (app:, user:), the
 * toolkit graph and the sessions' indexes. Upgrades run in order, so a
 * database written by any earlier version opens and keeps its data.
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import { AgentError, messageOf } from '../errors';
import type { AgentEvent } from './event';
import type { Session } from './store';
import { unstorableValue } from './append-rules';

export const DB_VERSION = 2;

/** A session as stored: like Session, but `state` holds the session's own keys only (app: and user: keys live in their own stores). */
export type StoredSession = Session;

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

export async function openAgentDatabase(name: string): Promise<AgentDatabase> {
  if (typeof indexedDB === 'undefined' || indexedDB === null) {
    throw new AgentError(
      'storage-unavailable',
      "IndexedDB is not available here (some private browsing modes remove it). Use createAgent({ storage: 'auto' }) to fall back to memory, or storage: 'memory'.",
    );
  }
  let blockedTimer: ReturnType<typeof setTimeout> | undefined;
  let rejectBlocked!: (error: AgentError) => void;
  const blocked = new Promise<never>((_, reject) => (rejectBlocked = reject));
  blocked.catch(() => undefined);
  const opening = openDB<AgentDB>(name, DB_VERSION, {
    upgrade(db, oldVersion, _newVersion, tx) {
      if (oldVersion < 1) {
        db.createObjectStore('sessions', { keyPath: 'id' });
        db.createObjectStore('events', { keyPath: ['sessionId', 'seq'] });
      }
      if (oldVersion < 2) {
        const sessions = tx.objectStore('sessions');
        sessions.createIndex('byUpdated', 'updatedAt');
        sessions.createIndex('byOwner', ['appName', 'userId']);
        db.createObjectStore('appState', { keyPath: 'appName' });
        db.createObjectStore('userState', { keyPath: ['appName', 'userId'] });
        db.createObjectStore('toolkit');
      }
    },
    blocked() {
      // Another tab holds an older version open and did not let go.
      blockedTimer = setTimeout(
        () =>
          rejectBlocked(
            new AgentError(
              'storage-blocked',
              `The database "${name}" needs an upgrade, but another tab of this page keeps an older version open. Close the other tabs of this page, then reload.`,
            ),
          ),
        BLOCKED_GRACE_MS,
      );
    },
    blocking(_current, _next, event) {
      // Never be the tab that blocks another's upgrade: let go at once.
      (event.target as IDBDatabase).close();
    },
  });
  try {
    const db = await Promise.race([opening, blocked]);
    clearTimeout(blockedTimer);
    return db;
  } catch (error) {
    clearTimeout(blockedTimer);
    opening.then(
      (db) => db.close(),
      () => undefined,
    );
    if (error instanceof AgentError) throw error;
    throw new AgentError(
      'storage-unavailable',
      `IndexedDB could not open "${name}": ${messageOf(error)}. Use storage: 'auto' to fall back to memory.`,
      { cause: error },
    );
  }
}

/** IndexedDB failures as AgentErrors that say what to do; quota above all. */
export function storageError(error: unknown, doing: string): AgentError {
  if (error instanceof AgentError) return error;
  const name = (error as { name?: string } | null)?.name;
  if (name === 'QuotaExceededError') {
    return new AgentError(
      'quota-exceeded',
      `The browser's storage quota is full, so ${doing} was not saved (nothing already stored was lost). Delete old sessions (agent.sessions.delete) or free space for this site.`,
      { cause: error },
    );
  }
  // Bad input, not bad storage: say which rule the value broke.
  if (name === 'DataCloneError') return unstorableValue(error, doing);
  if (name === 'InvalidStateError' || name === 'TransactionInactiveError') {
    return new AgentError(
      'storage-unavailable',
      `IndexedDB closed while ${doing} (another tab upgraded the database, or the browser is shutting down). Reload the page.`,
      { cause: error },
    );
  }
  return new AgentError('storage-unavailable', `IndexedDB failed while ${doing}: ${messageOf(error)}.`, {
    cause: error,
  });
}
