/**
 * What an import does with the approvals its file holds. A file may come
 * from anywhere, so a decision in it on a call that still waits may have
 * been written by anyone: it is never honoured. When the file's last turn
 * waits for a person (call-ledger.ts, pausedTurn), every request of that
 * turn must show its calls' own arguments (shownArgsProblem), and if the
 * file holds a decision on that turn, the import ends with a request of its
 * own that asks about every call the turn asked about again, so the
 * decisions before it no longer count. A turn that was answered asks
 * nothing, whatever it shows.
 */
import { shownArgsProblem } from './approval-request-rule';
import { callLedgerOf, pausedTurn, type CallLedger } from './call-ledger';
import { newId, type AgentEvent } from './event';

export type ImportedApprovals =
  | { ok: true; askAgain?: AgentEvent }
  | { ok: false; /** The event whose request cannot stand (seq). */ seq: number; reason: string };

/** `events`: the file's events, numbered from 1 in the imported session; `ledger`: theirs, when the caller folded them already. */
export function importedApprovals(
  events: readonly AgentEvent[],
  sessionId: string,
  ledger: CallLedger = callLedgerOf(events),
): ImportedApprovals {
  const turn = pausedTurn(ledger);
  if (!turn) return { ok: true };
  for (const request of turn.requests)
    for (const entry of request.actions!.requestApproval!) {
      const problem = shownArgsProblem(turn.calls.byId.get(entry.callId)!, entry.args);
      if (problem) return { ok: false, seq: request.seq, reason: `its request for approval cannot stand: ${problem}` };
    }
  if (turn.decided.size === 0) return { ok: true };
  const last = events[events.length - 1]!;
  return {
    ok: true,
    askAgain: {
      type: 'approval-request',
      id: newId('ev'),
      sessionId,
      invocationId: turn.pausedOn.invocationId,
      seq: last.seq + 1,
      author: turn.pausedOn.author,
      timestamp: Math.max(Date.now(), last.timestamp),
      actions: { requestApproval: [...turn.asked.values()] },
      endReason: 'awaiting-approval',
      notices: [
        {
          code: 'approvals-asked-again',
          message:
            'This session was imported: the decisions its file holds on these calls are not honoured (a file may come from anywhere), so each call is asked again.',
        },
      ],
    },
  };
}
