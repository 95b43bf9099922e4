/**
 * A crash, a reload or a killed worker between a function call and its
 * response leaves the call open. Opening the session answers such calls with
 * error 'interrupted', so the history a model sees is well formed. Tools are
 * never re-run on their own. Calls that wait legitimately (for an approval,
 * or long-running ones) are left alone.
 */
import type { AgentEvent, FunctionCall } from './event';
import type { SessionStore } from './store';
import { recentEvents } from './recent-events';

export const INTERRUPTED = 'interrupted';

export interface OpenCall {
  call: FunctionCall;
  /** The model event that made the call. */
  event: AgentEvent;
}

export function interruptedCalls(events: readonly AgentEvent[]): OpenCall[] {
  const open = new Map<string, OpenCall>();
  const waiting = new Set<string>();
  for (const event of events) {
    for (const part of event.content?.parts ?? []) {
      if ('functionCall' in part && event.content?.role === 'model')
        open.set(part.functionCall.id, { call: part.functionCall, event });
      if ('functionResponse' in part && !event.late) open.delete(part.functionResponse.id);
    }
    for (const asked of event.actions?.requestApproval ?? []) waiting.add(asked.callId);
    if (event.actions?.approval) waiting.delete(event.actions.approval.callId);
    for (const id of event.longRunningToolIds ?? []) waiting.add(id);
  }
  return [...open.values()].filter(({ call }) => !waiting.has(call.id));
}

/** Appends one 'interrupted' response per model event with open calls; returns what it appended. */
export async function repairInterrupted(store: SessionStore, sessionId: string): Promise<AgentEvent[]> {
  const open = interruptedCalls(await recentEvents(store, sessionId));
  const byEvent = new Map<AgentEvent, FunctionCall[]>();
  for (const { call, event } of open) byEvent.set(event, [...(byEvent.get(event) ?? []), call]);
  const appended: AgentEvent[] = [];
  for (const [event, calls] of byEvent) {
    appended.push(
      await store.append(sessionId, {
        id: crypto.randomUUID(),
        sessionId,
        invocationId: event.invocationId,
        author: event.author,
        timestamp: Date.now(),
        content: {
          role: 'tool',
          parts: calls.map((call) => ({
            functionResponse: { id: call.id, name: call.name, response: null, error: INTERRUPTED },
          })),
        },
      }),
    );
  }
  return appended;
}
