/**
 * What the loop asks of the graph each step: which declared tools to offer
 * for the current actions (tools the graph does not know are always offered),
 * a line naming the next possible actions, and, after a successful call,
 * which actions become current (those that call that tool).
 */
import type { ToolkitGraph } from './graph';
import { recommendIds } from './recommend';

export interface StepSelector {
  select(declared: string[]): { offered: string[]; prompt?: string };
  afterCall(toolName: string): void;
  readonly current: readonly string[];
}

export interface SelectorOptions {
  startActions: string[];
  threshold?: number;
  hops?: number;
}

export function createToolSelector(graph: ToolkitGraph, options: SelectorOptions): StepSelector {
  let current = options.startActions.filter((id) => graph.vertex(id)?.kind === 'action');
  return {
    get current() {
      return current;
    },
    select(declared) {
      if (current.length === 0) return { offered: declared };
      const { tools, actions } = recommendIds(graph, current, { threshold: options.threshold, hops: options.hops });
      const recommended = new Set(tools);
      const offered = declared.filter((name) => recommended.has(name) || graph.vertex(name)?.kind !== 'tool');
      const next = new Set(
        actions.flatMap((id) =>
          graph
            .out(id, 'next')
            .filter((edge) => edge.score >= (options.threshold ?? 0.5))
            .map((edge) => edge.to),
        ),
      );
      const described = [...next]
        .map((id) => graph.vertex(id))
        .flatMap((vertex) =>
          vertex?.kind === 'action' ? [`${vertex.name}${vertex.description ? ` (${vertex.description})` : ''}`] : [],
        );
      return { offered, prompt: described.length ? `Possible next steps: ${described.join('; ')}.` : undefined };
    },
    afterCall(toolName) {
      const callers = graph.in(toolName, 'call').map((edge) => edge.from);
      if (callers.length) current = callers;
    },
  };
}
