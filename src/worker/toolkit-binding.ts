/**
 * The toolkit graph as the worker holds it for one agent: loaded from the
 * agent's database at start, saved whole on every change, consulted by the
 * loop each step, and changed through agent.toolkit.
 */
import { AgentError } from '../errors';
import type { SessionStore } from '../session/store';
import { IdbSessionStore } from '../session/idb-store';
import type { ToolSelector } from '../flow/types';
import { ToolkitGraph } from '../toolkit/graph';
import { Toolkit } from '../toolkit/toolkit';
import { createToolSelector } from '../toolkit/selector';
import { loadToolkit, saveToolkit } from '../toolkit/idb-toolkit-store';
import type { HostConfig } from './protocol';

export interface ToolkitBinding {
  /** The loop's selector, or undefined when the agent names no start actions. */
  selector(): ToolSelector | undefined;
  call(method: string, args: unknown[]): Promise<unknown>;
}

/** The one graph of an app's database. */
const GRAPH_NAME = 'default';

const METHODS = [
  'addAction',
  'addTool',
  'addToolGroup',
  'getAction',
  'removeTool',
  'removeAction',
  'setScore',
  'recommend',
  'recommendToolsActions',
  'render',
  'toMermaid',
  'toJSON',
] as const;

export async function createToolkitBinding(config: HostConfig, store: SessionStore): Promise<ToolkitBinding> {
  const db = store instanceof IdbSessionStore ? store.db : undefined;
  const graph = (db && (await loadToolkit(db, GRAPH_NAME))) || new ToolkitGraph();
  const toolkit = new Toolkit(graph, (changed) => (db ? saveToolkit(db, GRAPH_NAME, changed) : undefined));
  // One selector per agent: the current actions carry over from step to step and run to run.
  const selector = config.toolkit ? createToolSelector(graph, config.toolkit) : undefined;
  return {
    selector: () => selector,
    async call(method, args) {
      if (method === 'learn') {
        const [options] = args as [{ rate?: number } | undefined];
        const sessions = await store.list({ appName: config.appName, userId: config.userId });
        const events = await Promise.all(sessions.map((session) => store.events(session.id)));
        return toolkit.learn(events, options);
      }
      if (!(METHODS as readonly string[]).includes(method)) {
        throw new AgentError(
          'invalid-options',
          `agent.toolkit has no method "${method}". It has: ${[...METHODS, 'learn'].join(', ')}.`,
        );
      }
      const fn = toolkit[method as (typeof METHODS)[number]] as (...a: unknown[]) => unknown;
      return fn.apply(toolkit, args);
    },
  };
}
