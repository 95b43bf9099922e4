/**
 * Sessions reached without an agent: the way out when storage is full and
 * nothing can be stored (not even what starting an agent writes), when a
 * page only wants to list or clear what is kept, or when it shows a stored
 * conversation while its agent still loads the model (after a reload, a CPU
 * model takes a while). They open the database on this thread, do one
 * thing, and close it.
 */
import type { SessionView } from '../contract/protocol';
import { openIdbSessionStore } from '../session/idb-store';
import type { SessionSummary } from '../session/store';
import { checkSessionId } from './options-schema';

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

/**
 * A stored session and its events, as agent.sessions.get gives them, read on this thread: nothing waits for
 * a worker or a model. Undefined when the database or the session is not there.
 */
export async function getSession(id: string, options: { dbName?: string } = {}): Promise<SessionView | undefined> {
  checkSessionId(id, 'getSession');
  if (!(await mayExist(options.dbName ?? DEFAULT_DB))) return undefined;
  const store = await openIdbSessionStore({ dbName: options.dbName ?? DEFAULT_DB });
  try {
    const session = await store.get(id);
    return session && { id, state: session.state, events: await store.events(id), session };
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
