/**
 * What the loop asks of the graph. Once per run: which declared tools the
 * run's prompt describes (every tool the graph can recommend from the start
 * and current actions, however many hops away, plus the tools it does not
 * know) and a line naming the steps the task can go through; both stay the
 * same for the whole run, so the prompt (and the model's KV cache) does too.
 * Each step: which of those tools the step allows (the grammar narrows, the
 * prompt does not change), and, after a successful call, which actions
 * become current (those that call that tool). A step adds nothing to the
 * prompt: a line that changed every step would cost the KV cache its prefix.
 */
import type { ToolkitGraph } from './graph';
import { recommendIds } from './recommend';

export interface StepSelector {
  /** The tools and the prompt line for a whole run. */
  describeRun(declared: string[]): { described: string[]; prompt?: string };
  /** The tools a step allows. */
  select(declared: string[]): { offered: string[] };
  afterCall(toolName: string): void;
  readonly current: readonly string[];
}

export interface SelectorOptions {
  startActions: string[];
  threshold?: number;
  hops?: number;
}

export function createToolSelector(graph: ToolkitGraph, options: SelectorOptions): StepSelector {
  const start = options.startActions.filter((id) => graph.vertex(id)?.kind === 'action');
  let current = start;
  const threshold = options.threshold ?? 0.5;
  const offer = (declared: string[], recommended: readonly string[]) => {
    const names = new Set(recommended);
    return declared.filter((name) => names.has(name) || graph.vertex(name)?.kind !== 'tool');
  };
  const describe = (ids: readonly string[]) =>
    ids
      .map((id) => graph.vertex(id))
      .flatMap((vertex) =>
        vertex?.kind === 'action' ? [`${vertex.name}${vertex.description ? ` (${vertex.description})` : ''}`] : [],
      );
  return {
    get current() {
      return current;
    },
    describeRun(declared) {
      const from = [...new Set([...start, ...current])];
      if (from.length === 0) return { described: declared };
      // Every action is at most (number of actions) hops away: this is the whole reachable part of the graph.
      const hops = graph.vertices('action').length;
      const { tools, actions } = recommendIds(graph, from, { threshold, hops });
      const steps = describe(actions);
      return {
        described: offer(declared, tools),
        prompt: steps.length > 1 ? `Steps this task can go through: ${steps.join('; ')}.` : undefined,
      };
    },
    select(declared) {
      if (current.length === 0) return { offered: declared };
      const { tools } = recommendIds(graph, current, { threshold, hops: options.hops });
      return { offered: offer(declared, tools) };
    },
    afterCall(toolName) {
      const callers = graph.in(toolName, 'call').map((edge) => edge.from);
      if (callers.length) current = callers;
    },
  };
}
