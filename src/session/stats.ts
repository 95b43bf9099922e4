/** Telemetry read back from a session's events: per-tool counts, errors, latency percentiles. */
import type { AgentEvent } from './event';

export interface ToolStats {
  calls: number;
  errors: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
}

export interface AgentStats {
  sessionId: string;
  events: number;
  modelSteps: number;
  promptTokens: number;
  completionTokens: number;
  tools: Record<string, ToolStats>;
}

export function sessionStats(sessionId: string, events: readonly AgentEvent[]): AgentStats {
  const latencies = new Map<string, number[]>();
  // Without a prototype: a tool may be named toString or valueOf, and must be counted, not found on Object.
  const tools: Record<string, ToolStats> = Object.create(null);
  let modelSteps = 0;
  let promptTokens = 0;
  let completionTokens = 0;
  for (const event of events) {
    if (event.late || !event.content) continue;
    if (event.content.role === 'model') {
      modelSteps += 1;
      promptTokens += event.usage?.promptTokens ?? 0;
      completionTokens += event.usage?.completionTokens ?? 0;
    }
    if (event.content.role !== 'tool') continue;
    for (const part of event.content.parts) {
      if (!('functionResponse' in part)) continue;
      const { id, name, error } = part.functionResponse;
      const stats = (tools[name] ??= { calls: 0, errors: 0, p50Ms: 0, p95Ms: 0, maxMs: 0 });
      stats.calls += 1;
      if (error) stats.errors += 1;
      const ms = event.toolTimings?.[id];
      if (ms !== undefined) latencies.set(name, [...(latencies.get(name) ?? []), ms]);
    }
  }
  for (const [name, values] of latencies) {
    const sorted = values.sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
    Object.assign(tools[name]!, { p50Ms: at(0.5), p95Ms: at(0.95), maxMs: sorted[sorted.length - 1]! });
  }
  return { sessionId, events: events.length, modelSteps, promptTokens, completionTokens, tools };
}
