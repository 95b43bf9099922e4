/**
 * Calls recorded without an answer yet, kept on the session record and
 * updated in the same transaction as the event that opens or answers them.
 * So finding a call that a crash left open never depends on how much of a
 * long log is read, and costs no read of the log at all.
 */
import type { AgentEvent } from './event';

export interface OpenCall {
  name: string;
  /** The model event that made the call. */
  seq: number;
  invocationId: string;
  author: string;
  /** Open on purpose: a person has not decided yet, or the tool answers later (resolveTool). */
  waiting?: 'approval' | 'long-running';
}

/** By call id. */
export type OpenCalls = Record<string, OpenCall>;

/** The open calls after `event`; the same object when the event changes none. */
export function trackOpenCalls(open: OpenCalls, event: AgentEvent): OpenCalls {
  let next = open;
  const edit = () => (next === open ? (next = { ...open }) : next);
  const parts = event.content?.parts ?? [];
  if (event.content?.role === 'model') {
    for (const part of parts) {
      if (!('functionCall' in part)) continue;
      const { id, name } = part.functionCall;
      edit()[id] = { name, seq: event.seq, invocationId: event.invocationId, author: event.author };
    }
  }
  if (!event.late) {
    for (const part of parts)
      if ('functionResponse' in part && part.functionResponse.id in next) delete edit()[part.functionResponse.id];
  }
  for (const asked of event.actions?.requestApproval ?? []) mark(asked.callId, 'approval');
  for (const id of event.longRunningToolIds ?? []) mark(id, 'long-running');
  const decided = event.actions?.approval?.callId;
  if (decided && next[decided]?.waiting === 'approval') {
    const { waiting: _decided, ...call } = next[decided];
    edit()[decided] = call;
  }
  return next;

  function mark(id: string, waiting: OpenCall['waiting']) {
    if (next[id]) edit()[id] = { ...next[id], waiting };
  }
}

/** The open calls of a whole log, for sessions written before the record kept them and for imports. */
export function openCallsOf(events: Iterable<AgentEvent>): OpenCalls {
  let open: OpenCalls = {};
  for (const event of events) open = trackOpenCalls(open, event);
  return open;
}
