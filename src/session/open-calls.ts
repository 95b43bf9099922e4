/**
 * Calls recorded without an answer yet, kept on the session record and
 * updated in the same transaction as the event that opens or answers them.
 * So finding a call that a crash left open never depends on how much of a
 * long log is read, and costs no read of the log at all.
 *
 * Keeping them costs each event the calls it names, never the calls that are
 * open: a turn of 10,000 calls answered one by one, or decided one by one,
 * must not copy or scan 10,000 entries per event. So a batch of events is
 * applied to one copy, and that a call waits because another call of its
 * turn waits for a person is read from the turn (waitsForPerson), not
 * written on each call.
 */
import type { AgentEvent } from './event';
import { functionCalls, functionResponses } from './parts';

export interface OpenCall {
  name: string;
  /** The model event that made the call. */
  seq: number;
  invocationId: string;
  author: string;
  /**
   * Open on purpose. 'approval': a person has not decided yet; the other
   * calls of its turn wait with it (waitsForPerson). 'long-running': the
   * tool answers later (resolveTool). 'turn' was written by earlier
   * versions on those other calls; it means no more than their turn says.
   */
  waiting?: 'approval' | 'turn' | 'long-running';
}

/** By call id. */
export type OpenCalls = Record<string, OpenCall>;

/** The open calls after `events`, in order; the same object when they change none. */
export function trackOpenCalls(open: OpenCalls, events: readonly AgentEvent[]): OpenCalls {
  let next = open;
  // Without a prototype, so that no call id (an imported file's "__proto__") reaches one.
  const edit = () => (next === open ? (next = Object.assign(Object.create(null) as OpenCalls, open)) : next);
  const own = (id: string): OpenCall | undefined => (Object.hasOwn(next, id) ? next[id] : undefined);
  const mark = (id: string, waiting: OpenCall['waiting']) => {
    const call = own(id);
    if (!call || call.waiting === waiting) return;
    const { waiting: _was, ...rest } = call;
    edit()[id] = waiting ? { ...rest, waiting } : rest;
  };
  for (const event of events) {
    if (event.content?.role === 'model')
      for (const { id, name } of functionCalls(event))
        edit()[id] = { name, seq: event.seq, invocationId: event.invocationId, author: event.author };
    if (!event.late) for (const { id } of functionResponses(event)) if (Object.hasOwn(next, id)) delete edit()[id];
    for (const asked of event.actions?.requestApproval ?? []) mark(asked.callId, 'approval');
    for (const id of event.longRunningToolIds ?? []) mark(id, 'long-running');
    // Decided: the call runs with its turn, once no call of the turn waits for a person (a crash from then on leaves it open).
    const decided = event.actions?.approval?.callId;
    if (decided !== undefined && own(decided)?.waiting === 'approval') mark(decided, undefined);
  }
  return next;
}

/** The open calls of a whole log, for sessions written before the record kept them and for imports. */
export function openCallsOf(events: readonly AgentEvent[]): OpenCalls {
  return trackOpenCalls({}, events);
}

/**
 * Whether each open call waits on purpose: for a person (its own decision,
 * or another call of its turn that is not decided yet) or for a
 * long-running tool's answer. One pass over the open calls.
 */
export function waitsOnPurpose(open: OpenCalls): (call: OpenCall) => boolean {
  const asking = new Set<number>();
  for (const call of Object.values(open)) if (call.waiting === 'approval') asking.add(call.seq);
  return (call) => call.waiting === 'long-running' || asking.has(call.seq);
}
