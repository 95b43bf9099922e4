/**
 * Sessions reached without an agent: the way out when storage is full and
 * nothing can be stored (not even what starting an agent writes), or when a
 * page only wants to list or clear what is kept. They open the database on
 * this thread, do one thing, and close it.
 */
import { openIdbSessionStore } from '../session/idb-store';
import type { SessionSummary } from '../session/store';

const DEFAULT_DB = 'inpage-agent';

/**
 * Whether the database may exist. Opening one that does not would create it
 * (an empty database left behind by a look); where the browser cannot list
 * its databases, we open and see.
 */
async function mayExist(dbName: string): Promise<boolean> {
  if (typeof indexedDB === 'undefined' || typeof indexedDB?.databases !== 'function') return true;
  try {
    return (await indexedDB.databases()).some((db) => db.name === dbName);
  } catch {
    return true;
  }
}

/** The sessions stored in a database, newest first (all apps and users unless filtered). */
export async function listSessions(
  options: { dbName?: string; appName?: string; userId?: string } = {},
): Promise<SessionSummary[]> {
  if (!(await mayExist(options.dbName ?? DEFAULT_DB))) return [];
  const store = await openIdbSessionStore({ dbName: options.dbName ?? DEFAULT_DB });
  try {
    return await store.list({ appName: options.appName, userId: options.userId });
  } finally {
    store.close();
  }
}

/** Deletes a session and its events; deleting frees space even when the storage quota is full. */
export async function deleteSession(id: string, options: { dbName?: string } = {}): Promise<void> {
  if (!(await mayExist(options.dbName ?? DEFAULT_DB))) return;
  const store = await openIdbSessionStore({ dbName: options.dbName ?? DEFAULT_DB });
  try {
    await store.delete(id);
  } finally {
    store.close();
  }
}
