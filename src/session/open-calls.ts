/**
 * Calls recorded without an answer yet, kept on the session record and
 * updated in the same transaction as the event that opens or answers them.
 * So finding a call that a crash left open never depends on how much of a
 * long log is read, and costs no read of the log at all.
 *
 * Keeping them costs each event the calls it names, never the calls that are
 * open: a turn of 10,000 calls answered one by one, or decided one by one,
 * must not copy or scan 10,000 entries per event. So a batch of events is
 * folded beside the record (call-ledger.ts) and applied to one copy, and
 * that a call waits because another call of its turn waits for a person is
 * read from the turn (waitsOnPurpose), not written on each call.
 */
import type { AgentEvent } from './event';
import { callLedgerOf, openCallsIn, type OpenCalls } from './call-ledger';

export { waitsOnPurpose, type OpenCall, type OpenCalls } from './call-ledger';

/** The open calls after `events`, in order; the same object when they change none. */
export function trackOpenCalls(open: OpenCalls, events: readonly AgentEvent[]): OpenCalls {
  return openCallsIn(callLedgerOf(events, open));
}

/** The open calls of a whole log, for sessions written before the record kept them and for imports. */
export function openCallsOf(events: readonly AgentEvent[]): OpenCalls {
  return openCallsIn(callLedgerOf(events));
}
