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
  /**
   * Open on purpose. 'approval': a person has not decided yet. 'turn':
   * another call of its model turn waits for a person, and this one runs (or
   * is answered) with the turn once the last of them is decided.
   * 'long-running': the tool answers later (resolveTool).
   */
  waiting?: 'approval' | 'turn' | 'long-running';
}

/** By call id. */
export type OpenCalls = Record<string, OpenCall>;

/** The open calls after `event`; the same object when the event changes none. */
export function trackOpenCalls(open: OpenCalls, event: AgentEvent): OpenCalls {
  let next = open;
  // Without a prototype, so that no call id (an imported file's "__proto__") reaches one.
  const edit = () => (next === open ? (next = Object.assign(Object.create(null) as OpenCalls, open)) : next);
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
      if ('functionResponse' in part && Object.hasOwn(next, part.functionResponse.id))
        delete edit()[part.functionResponse.id];
  }
  for (const asked of event.actions?.requestApproval ?? []) {
    mark(asked.callId, 'approval');
    // The turn's other calls wait with it: no repair may answer them while a person still decides.
    const turn = own(asked.callId)?.seq;
    for (const [id, call] of Object.entries(next)) if (call.seq === turn && !call.waiting) mark(id, 'turn');
  }
  for (const id of event.longRunningToolIds ?? []) mark(id, 'long-running');
  const decided = event.actions?.approval?.callId;
  if (decided !== undefined && own(decided)?.waiting === 'approval') {
    mark(decided, 'turn');
    // The last decision of the turn: its calls run now, and a crash from here on leaves them open.
    const turn = next[decided]!.seq;
    const calls = Object.entries(next).filter(([, call]) => call.seq === turn);
    if (!calls.some(([, call]) => call.waiting === 'approval'))
      for (const [id, call] of calls) if (call.waiting === 'turn') mark(id, undefined);
  }
  return next;

  function own(id: string): OpenCall | undefined {
    return Object.hasOwn(next, id) ? next[id] : undefined;
  }

  function mark(id: string, waiting: OpenCall['waiting']) {
    const call = own(id);
    if (!call) return;
    const { waiting: _was, ...rest } = call;
    edit()[id] = waiting ? { ...rest, waiting } : rest;
  }
}

/** The open calls of a whole log, for sessions written before the record kept them and for imports. */
export function openCallsOf(events: Iterable<AgentEvent>): OpenCalls {
  let open: OpenCalls = {};
  for (const event of events) open = trackOpenCalls(open, event);
  return open;
}
