/**
 * Recommendation after Chat2Graph: a weighted breadth-first search from the
 * given actions. Along `next` edges with a score ≥ threshold it goes up to
 * `hops` steps; every reached action brings the tools it `call`s with a
 * score ≥ threshold, and the groups that hold them.
 */
import { invalid, type ToolkitGraph } from './graph';

export interface RecommendOptions {
  threshold?: number;
  hops?: number;
}

export function recommendIds(
  graph: ToolkitGraph,
  actionIds: readonly string[],
  options: RecommendOptions = {},
): { actions: string[]; tools: string[]; groups: string[] } {
  const threshold = options.threshold ?? 0.5;
  const hops = options.hops ?? 0;
  if (!Number.isInteger(hops) || hops < 0)
    throw invalid(`hops must be a whole number of 0 or more (got ${String(options.hops)}).`);
  const actions = new Set<string>();
  let frontier: string[] = [];
  for (const id of actionIds) {
    if (graph.vertex(id)?.kind !== 'action') throw invalid(`"${id}" is not an action of the toolkit.`);
    if (!actions.has(id)) {
      actions.add(id);
      frontier.push(id);
    }
  }
  for (let hop = 0; hop < hops && frontier.length; hop++) {
    const next: string[] = [];
    for (const id of frontier) {
      for (const edge of graph.out(id, 'next')) {
        if (edge.score >= threshold && !actions.has(edge.to)) {
          actions.add(edge.to);
          next.push(edge.to);
        }
      }
    }
    frontier = next;
  }
  const tools = new Set<string>();
  for (const id of actions) for (const edge of graph.out(id, 'call')) if (edge.score >= threshold) tools.add(edge.to);
  const groups = new Set<string>();
  for (const tool of tools) for (const edge of graph.in(tool, 'has')) groups.add(edge.from);
  return { actions: [...actions], tools: [...tools], groups: [...groups] };
}

export function recommendSubgraph(
  graph: ToolkitGraph,
  actionIds: readonly string[],
  options?: RecommendOptions,
): ToolkitGraph {
  const { actions, tools, groups } = recommendIds(graph, actionIds, options);
  return graph.subgraph([...actions, ...tools, ...groups]);
}
