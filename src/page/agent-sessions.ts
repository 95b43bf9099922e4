/**
 * agent.sessions and agent.openSession: the worker's sessions service, reached
 * through the worker of the moment, and subscribe(), which needs no worker (it
 * listens where every tab announces the events it stores, session/broadcast.ts).
 */
import * as Comlink from 'comlink';
import type { ImportProgress, SessionsApi, SessionView } from '../contract/protocol';
import { subscribeSession } from '../session/broadcast';
import type { AgentEvent } from '../session/event';
import type { SessionSummary } from '../session/store';
import { checkSessionId } from './options-schema';
import type { Supervisor } from './supervisor';

export interface AgentSessions {
  list(): Promise<SessionSummary[]>;
  get(id: string): Promise<SessionView | undefined>;
  delete(id: string): Promise<void>;
  export(id: string): Promise<string>;
  import(jsonl: string, options?: { onProgress?: (progress: ImportProgress) => void }): Promise<string>;
  subscribe(id: string, onEvent: (event: AgentEvent) => void): () => void;
}

export function agentSessions(remote: Comlink.Remote<SessionsApi>, dbName: string): AgentSessions {
  /** A method whose id is checked on the page first: a bad one fails here, in words, not in IndexedDB. */
  const byId =
    <T>(where: string, call: (id: string) => Promise<T>) =>
    async (id: string) => {
      checkSessionId(id, `sessions.${where}`);
      return call(id);
    };
  return {
    list: () => remote.list(),
    get: byId('get', (id) => remote.get(id)),
    delete: byId('delete', (id) => remote.delete(id)),
    export: byId('export', (id) => remote.export(id)),
    // A function crosses to the worker only as a proxy.
    import: (jsonl, opts) => remote.import(jsonl, opts?.onProgress ? Comlink.proxy(opts.onProgress) : undefined),
    subscribe: (id, onEvent) => {
      checkSessionId(id, 'sessions.subscribe');
      return subscribeSession(dbName, id, onEvent);
    },
  };
}

/** Opens the session in the worker, and makes it the one a restarted worker opens again. */
export async function openSession(
  supervisor: Supervisor,
  remote: Comlink.Remote<SessionsApi>,
  sessionId: string | undefined,
): Promise<string> {
  if (sessionId !== undefined) checkSessionId(sessionId, 'openSession');
  const info = await remote.open(sessionId);
  supervisor.opened(info.sessionId);
  return info.sessionId;
}
