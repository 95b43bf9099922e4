/** The toolkit graph in the agent's IndexedDB database (store `toolkit`, one record per graph name, written whole in one transaction). */
import type { AgentDatabase } from '../session/database';
import { ToolkitGraph } from './graph';

export async function loadToolkit(db: AgentDatabase, name: string): Promise<ToolkitGraph | undefined> {
  const stored = await db.get('toolkit', name);
  return stored === undefined ? undefined : ToolkitGraph.fromJSON(stored);
}

export async function saveToolkit(db: AgentDatabase, name: string, graph: ToolkitGraph): Promise<void> {
  await db.put('toolkit', graph.toJSON(), name);
}
