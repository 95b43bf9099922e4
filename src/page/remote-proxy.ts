/**
 * A typed handle on a service the worker holds (agent.toolkit, agent.model, the page's sessions and
 * tools) that outlives the worker: each call goes through the supervisor's send, so it leaves in the
 * order it was made, and after a restart it reaches the new worker.
 */
import type * as Comlink from 'comlink';
import type { AgentHostApi } from '../contract/protocol';
import type { Supervisor } from './supervisor';
import type { ServiceName } from './worker-connection';

export function remoteService<N extends ServiceName>(
  supervisor: Pick<Supervisor, 'send'>,
  name: N,
): Comlink.Remote<AgentHostApi[N]> {
  return new Proxy({} as Comlink.Remote<AgentHostApi[N]>, {
    get(_target, property) {
      // Not a thenable, and not a place to hang symbols: only methods cross.
      if (typeof property !== 'string' || property === 'then') return undefined;
      return (...args: unknown[]) =>
        supervisor.send((connection) => {
          const service = connection.service(name) as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
          return service[property]!(...args);
        });
    },
  });
}
