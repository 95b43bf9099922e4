/**
 * The toolkit graph as the worker holds it for one agent: loaded from its
 * own database at start (kept in memory only when sessions are), saved whole
 * on every change, consulted by the loop each step, and offered to the page
 * as agent.toolkit.
 */
import type { SessionStore } from '../session/store';
import type { ToolSelector } from '../flow/types';
import { ToolkitGraph } from '../toolkit/graph';
import { openToolkitStore } from '../toolkit/idb-toolkit-store';
import { createToolSelector } from '../toolkit/selector';
import { Toolkit } from '../toolkit/toolkit';
import type { HostConfig } from '../contract/protocol';

export interface ToolkitBinding {
  toolkit: Toolkit;
  /** The loop's selector, or undefined when the agent names no start actions. */
  selector?: ToolSelector;
  close(): void;
}

/** The one graph of an app's database. */
const GRAPH_NAME = 'default';

export async function bindToolkit(config: HostConfig, store: SessionStore): Promise<ToolkitBinding> {
  // The graph is worth keeping, not worth failing a start for (a full disk, a denied database): it then lives in memory.
  const persisted =
    store.kind === 'indexeddb' ? await openToolkitStore(config.dbName).catch(() => undefined) : undefined;
  const loaded = await persisted?.load(GRAPH_NAME).catch(() => undefined);
  const graph = loaded ?? new ToolkitGraph();
  const toolkit = new Toolkit(
    graph,
    (changed) => persisted?.save(GRAPH_NAME, changed),
    async () => {
      const sessions = await store.list({ appName: config.appName, userId: config.userId });
      return Promise.all(sessions.map((session) => store.events(session.id)));
    },
  );
  // One selector per agent: the current actions carry over from step to step and run to run.
  const selector = config.toolkit ? createToolSelector(graph, config.toolkit) : undefined;
  return { toolkit, selector, close: () => persisted?.close() };
}
