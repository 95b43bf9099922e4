/**
 * Learning, which Chat2Graph only plans: stored sessions move scores toward
 * what worked. For each answered call, the acting action is taken to be the
 * caller of that tool with the highest score (ties: the first id in order);
 * a call answered without error moves that Action→Tool score toward 1, an
 * error toward 0; consecutive acting actions move their `next` edge toward 1.
 * Each move is score += rate·(target − score), so scores stay in [0, 1], and
 * the same events in the same order always give the same scores.
 */
import type { AgentEvent } from '../session/event';
import { functionResponses } from '../session/parts';
import type { ToolkitGraph } from './graph';

export interface LearnOptions {
  /** How far each observation moves a score, 0..1. */
  rate?: number;
}

export function learnFromEvents(graph: ToolkitGraph, sessions: AgentEvent[][], options: LearnOptions = {}): number {
  const rate = Math.min(1, Math.max(0, options.rate ?? 0.1));
  const changed = new Set<string>();
  const move = (u: string, v: string, target: number) => {
    const before = graph.getScore(u, v);
    const after = before + rate * (target - before);
    if (after !== before) {
      graph.setScore(u, v, Math.min(1, Math.max(0, after)));
      changed.add(`${u}→${v}`);
    }
  };
  for (const events of sessions) {
    let previous: string | undefined;
    for (const event of events) {
      if (event.late || event.content?.role !== 'tool') continue;
      for (const { name, error } of functionResponses(event)) {
        const action = actingAction(graph, name);
        if (!action) continue;
        move(action, name, error ? 0 : 1);
        if (error) continue;
        if (previous && previous !== action && graph.out(previous, 'next').some((edge) => edge.to === action))
          move(previous, action, 1);
        previous = action;
      }
    }
  }
  return changed.size;
}

function actingAction(graph: ToolkitGraph, tool: string): string | undefined {
  const callers = graph.in(tool, 'call').sort((a, b) => b.score - a.score || a.from.localeCompare(b.from));
  return callers[0]?.from;
}
