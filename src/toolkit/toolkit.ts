/**
 * The service behind agent.toolkit (Chat2Graph's ToolkitService): builds the
 * graph with clear errors, recommends, draws, learns. Every argument and
 * result is plain data, because the page reaches it through the worker.
 */
import { AgentError } from '../errors';
import type { AgentEvent } from '../session/event';
import { invalid, ToolkitGraph, type Action, type ToolGroup, type ToolkitJSON } from './graph';
import { recommendIds, recommendSubgraph, type RecommendOptions } from './recommend';
import { renderSvg, type RenderOptions } from './render-svg';
import { toMermaid } from './mermaid';
import { learnFromEvents, type LearnOptions } from './learn';
import { addMCPToolGroup } from './mcp-group';
import type { Connection, MCPToolListing, ToolkitApi } from './toolkit-api';

export type { Connection };

export class Toolkit implements ToolkitApi {
  constructor(
    readonly graph: ToolkitGraph = new ToolkitGraph(),
    /** Called after every change, e.g. to save the graph. */
    private readonly onChange: (graph: ToolkitGraph) => void | Promise<void> = () => undefined,
    /** The sessions learn() reads: every stored session of this user, as events. */
    private readonly sessions: () => Promise<AgentEvent[][]> = async () => [],
  ) {}

  async addAction(action: Action, next: Connection[] = [], prev: Connection[] = []): Promise<void> {
    if (!action?.id || typeof action.name !== 'string')
      throw invalid('An action needs an id and a name, e.g. { id: "plan", name: "Plan", description: "…" }.');
    for (const { action: other } of [...next, ...prev]) this.getAction(other);
    this.graph.addVertex({ kind: 'action', id: action.id, name: action.name, description: action.description ?? '' });
    for (const { action: other, score } of next) this.graph.addEdge(action.id, other, 'next', score);
    for (const { action: other, score } of prev) this.graph.addEdge(other, action.id, 'next', score);
    await this.onChange(this.graph);
  }

  /** A tool joins the graph through the actions that call it; one connected to none is refused. */
  async addTool(name: string, connectedActions: Connection[], description?: string): Promise<void> {
    this.checkConnections(name, connectedActions);
    this.graph.addVertex({ kind: 'tool', id: name, ...(description ? { description } : {}) });
    for (const { action, score } of connectedActions) this.graph.addEdge(action, name, 'call', score);
    await this.onChange(this.graph);
  }

  async addToolGroup(
    group: ToolGroup,
    tools: (string | { name: string; description?: string })[],
    connectedActions: Connection[],
  ): Promise<void> {
    if (!group?.id)
      throw invalid('A tool group needs an id, e.g. { id: "files", name: "File system", description: "…" }.');
    this.checkConnections(group.id, connectedActions);
    this.graph.addVertex({
      kind: 'group',
      id: group.id,
      name: group.name ?? group.id,
      description: group.description ?? '',
    });
    for (const tool of tools) {
      const { name, description } = typeof tool === 'string' ? { name: tool, description: undefined } : tool;
      this.graph.addVertex({ kind: 'tool', id: name, ...(description ? { description } : {}) });
      this.graph.addEdge(group.id, name, 'has');
      for (const { action, score } of connectedActions) this.graph.addEdge(action, name, 'call', score);
    }
    await this.onChange(this.graph);
  }

  addMCPToolGroup(
    group: { id: string; name?: string; description?: string },
    tools: MCPToolListing[],
    connectedActions: Connection[],
  ): Promise<void> {
    return addMCPToolGroup(this, group, tools, connectedActions);
  }

  getAction(id: string): Action {
    const vertex = this.graph.vertex(id);
    if (vertex?.kind !== 'action') {
      const known = this.graph.vertices('action').map((action) => action.id);
      throw new AgentError(
        'toolkit-invalid',
        `There is no action "${id}" in the toolkit. Actions: ${known.join(', ') || '(none yet: add one with toolkit.addAction)'}.`,
      );
    }
    const { kind: _kind, ...action } = vertex;
    return action;
  }

  async removeTool(name: string): Promise<void> {
    this.graph.remove(name);
    await this.onChange(this.graph);
  }

  async removeAction(id: string): Promise<void> {
    this.getAction(id);
    this.graph.remove(id);
    await this.onChange(this.graph);
  }

  async setScore(u: string, v: string, score: number): Promise<void> {
    this.graph.setScore(u, v, score);
    await this.onChange(this.graph);
  }

  recommend(actionIds: string[], options?: RecommendOptions): ToolkitJSON {
    return recommendSubgraph(this.graph, actionIds, options).toJSON();
  }

  recommendToolsActions(actionIds: string[], options?: RecommendOptions): { tools: string[]; actions: Action[] } {
    const { tools, actions } = recommendIds(this.graph, actionIds, options);
    return { tools, actions: actions.map((id) => this.getAction(id)) };
  }

  render(options?: RenderOptions): string {
    return renderSvg(this.graph, options);
  }

  toMermaid(): string {
    return toMermaid(this.graph);
  }

  /** Moves scores toward what worked in the stored sessions; returns how many edges changed. */
  async learn(options?: LearnOptions): Promise<{ changed: number }> {
    const changed = learnFromEvents(this.graph, await this.sessions(), options);
    if (changed) await this.onChange(this.graph);
    return { changed };
  }

  toJSON(): ToolkitJSON {
    return this.graph.toJSON();
  }

  private checkConnections(name: string, connections: Connection[]): void {
    if (!Array.isArray(connections) || connections.length === 0) {
      throw invalid(
        `"${name}" is connected to no action, so no step would ever offer it. Pass the actions that call it, e.g. [{ action: "plan", score: 0.9 }].`,
      );
    }
    for (const { action } of connections) this.getAction(action);
  }
}
