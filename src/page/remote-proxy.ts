/**
 * A typed handle on a service the worker holds (agent.toolkit, agent.model)
 * that outlives the worker: each call asks for the current worker's comlink
 * proxy (opened once per connection, see WorkerConnection.service), so a
 * call after a restart reaches the new worker.
 */
import type * as Comlink from 'comlink';

export function remoteService<T extends object>(current: () => Promise<Comlink.Remote<T>>): Comlink.Remote<T> {
  return new Proxy({} as Comlink.Remote<T>, {
    get(_target, property) {
      // Not a thenable, and not a place to hang symbols: only methods cross.
      if (typeof property !== 'string' || property === 'then') return undefined;
      return async (...args: unknown[]) => {
        const service = (await current()) as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
        return service[property]!(...args);
      };
    },
  });
}
