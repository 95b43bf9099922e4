/** Picks the store createAgent({ storage }) asks for; 'auto' falls back to memory and says so. */
import { AgentError } from '../errors';
import { openIdbSessionStore } from './idb-store';
import { MemorySessionStore } from './memory-store';
import type { SessionStore } from './store';

export async function openSessionStore(options: {
  storage: 'indexeddb' | 'memory' | 'auto';
  dbName: string;
  appName?: string;
}): Promise<{ store: SessionStore; notice?: string }> {
  if (options.storage === 'memory') return { store: new MemorySessionStore() };
  try {
    return { store: await openIdbSessionStore({ dbName: options.dbName }) };
  } catch (error) {
    if (options.storage !== 'auto' || !(error instanceof AgentError) || error.code === 'storage-blocked') throw error;
    return {
      store: new MemorySessionStore(),
      notice: `Sessions are kept in memory only and will be lost on reload: ${error.message}`,
    };
  }
}
