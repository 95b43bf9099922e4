/**
 * agent.toolkit as a page sees it: the toolkit graph's service, held by the
 * worker and reached through a comlink proxy, so every method returns a
 * promise on the page. Arguments and results are plain data.
 */
import type { Action, ToolGroup, ToolkitJSON } from './graph';
import type { LearnOptions } from './learn';
import type { RecommendOptions } from './recommend';
import type { RenderOptions } from './render-svg';

/** An edge to an action, with its score: how a new vertex joins the graph. */
export interface Connection {
  action: string;
  score: number;
}

/** One tool of an MCP server's tools/list, as a toolkit group takes it. */
export interface MCPToolListing {
  name: string;
  description?: string;
}

export interface ToolkitApi {
  addAction(action: Action, next?: Connection[], prev?: Connection[]): Promise<void>;
  addTool(name: string, connectedActions: Connection[], description?: string): Promise<void>;
  addToolGroup(
    group: ToolGroup,
    tools: (string | { name: string; description?: string })[],
    connectedActions: Connection[],
  ): Promise<void>;
  /** One MCP server's tools (its tools/list) as one group, connected to the actions that call them. */
  addMCPToolGroup(
    group: { id: string; name?: string; description?: string },
    tools: MCPToolListing[],
    connectedActions: Connection[],
  ): Promise<void>;
  getAction(id: string): Action;
  removeTool(name: string): Promise<void>;
  removeAction(id: string): Promise<void>;
  setScore(u: string, v: string, score: number): Promise<void>;
  recommend(actionIds: string[], options?: RecommendOptions): ToolkitJSON;
  recommendToolsActions(actionIds: string[], options?: RecommendOptions): { tools: string[]; actions: Action[] };
  render(options?: RenderOptions): string;
  toMermaid(): string;
  /** Moves scores toward what worked in this user's stored sessions; returns how many edges changed. */
  learn(options?: LearnOptions): Promise<{ changed: number }>;
  toJSON(): ToolkitJSON;
}
