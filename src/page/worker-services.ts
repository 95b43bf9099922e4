/**
 * The worker's services (AgentHostApi: runs, sessions, tools, model, toolkit), each opened once per
 * worker connection under its own name. A supervisor's `service` asks the current connection, so what
 * it opens reaches the new worker after a restart (remote-proxy.ts).
 */
import type * as Comlink from 'comlink';
import type { AgentHostApi } from '../contract/protocol';

type Remote = Comlink.Remote<AgentHostApi>;

const open = {
  runs: (remote: Remote) => remote.runs(),
  sessions: (remote: Remote) => remote.sessions(),
  tools: (remote: Remote) => remote.tools(),
  model: (remote: Remote) => remote.model(),
  toolkit: (remote: Remote) => remote.toolkit(),
};

/** A worker connection, or the supervisor that holds the current one. */
interface ServiceSource {
  service<T extends object>(name: string, open: (remote: Remote) => Promise<T>): Promise<T>;
}

export function serviceOf<N extends keyof typeof open>(source: ServiceSource, name: N): ReturnType<(typeof open)[N]> {
  return source.service(name, open[name] as (remote: Remote) => Promise<object>) as ReturnType<(typeof open)[N]>;
}
