/**
 * The toolkit graph's own IndexedDB database (`<dbName>-toolkit`), typed once:
 * one record per graph name, written whole in one transaction on every
 * change. Its own database, so that sessions and the graph each upgrade on
 * their own and neither reaches into the other's store.
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import { AgentError, messageOf } from '../errors';
import { ToolkitGraph, type ToolkitJSON } from './graph';

interface ToolkitDB extends DBSchema {
  graphs: { key: string; value: ToolkitJSON };
}

export interface ToolkitStore {
  load(name: string): Promise<ToolkitGraph | undefined>;
  save(name: string, graph: ToolkitGraph): Promise<void>;
  close(): void;
}

export async function openToolkitStore(dbName: string): Promise<ToolkitStore> {
  let db: IDBPDatabase<ToolkitDB>;
  try {
    db = await openDB<ToolkitDB>(`${dbName}-toolkit`, 1, {
      upgrade(database) {
        database.createObjectStore('graphs');
      },
      blocking(_current, _next, event) {
        // Never be the tab that blocks another's upgrade.
        (event.target as IDBDatabase).close();
      },
    });
  } catch (error) {
    throw new AgentError('storage-unavailable', `The toolkit graph's database could not open: ${messageOf(error)}.`, {
      cause: error,
    });
  }
  return {
    async load(name) {
      const stored = await db.get('graphs', name);
      return stored === undefined ? undefined : ToolkitGraph.fromJSON(stored);
    },
    async save(name, graph) {
      await db.put('graphs', graph.toJSON(), name);
    },
    close: () => db.close(),
  };
}
