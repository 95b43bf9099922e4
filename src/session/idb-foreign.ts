/**
 * Whether a database of our name is ours. Another library, or another app
 * on this origin, may have made one of the same name: at version 1 with other
 * stores, or at our version with none of ours. Writing our stores into it
 * would mix our data with theirs, and using it as it is fails on every call.
 * So a database is ours only if every store it holds is one of ours, keyed
 * as ours, holding records shaped as ours; then whatever it lacks is made
 * (a half-made database of ours is repaired). Anything else is left as it
 * is, and reported with what to do.
 */
import { AgentError } from '../errors';

/** Our stores and their keys (null: keys given with each put). */
export const STORE_KEYS: Readonly<Record<string, string | string[] | null>> = {
  sessions: 'id',
  events: ['sessionId', 'seq'],
  appState: 'appName',
  userState: ['appName', 'userId'],
  toolkit: null,
};

/** What is read of a database and of a transaction over its stores, whatever their schema. */
interface Stores {
  objectStoreNames: DOMStringList;
}
interface StoreReader {
  objectStore(name: string): {
    keyPath: string | string[] | null;
    openCursor(): Promise<{ value: unknown } | null>;
  };
}

/** Why the stores in `db` (read through `tx`) are not ours; undefined when they are (some may be missing). */
export async function foreignStores(db: Stores, tx: StoreReader): Promise<string | undefined> {
  for (const name of db.objectStoreNames) {
    if (!(name in STORE_KEYS)) return `it holds a store "${name}", which is not one of ours`;
    const store = tx.objectStore(name);
    if (JSON.stringify(store.keyPath) !== JSON.stringify(STORE_KEYS[name]))
      return `its store "${name}" is keyed by ${JSON.stringify(store.keyPath)}, not as ours`;
  }
  if (db.objectStoreNames.contains('sessions')) {
    const first = await tx.objectStore('sessions').openCursor();
    if (first && !isOurSession(first.value)) return 'its "sessions" store holds records that are not our sessions';
  }
  return undefined;
}

/** The stores of ours that `db` lacks. */
export function missingStores(db: Stores): string[] {
  return Object.keys(STORE_KEYS).filter((name) => !db.objectStoreNames.contains(name));
}

export function foreignDatabaseError(name: string, why: string): AgentError {
  return new AgentError(
    'storage-unavailable',
    `The database "${name}" on this site was not made by inpage-agent (${why}), so it was left as it is. Give the agent a database of its own with createAgent({ dbName: 'another-name' }) (and listSessions({ dbName })), or use storage: 'auto' to keep sessions in memory.`,
    { details: { dbName: name, foreign: why } },
  );
}

function isOurSession(value: unknown): boolean {
  const record = value as Record<string, unknown> | null;
  return (
    typeof record === 'object' &&
    record !== null &&
    typeof record.id === 'string' &&
    typeof record.appName === 'string' &&
    typeof record.userId === 'string' &&
    typeof record.lastSeq === 'number'
  );
}
