/**
 * A run started by a person's decision on a paused call. Checking that the
 * call is pending and recording the decision happen under the session's
 * lock, so a second click finds nothing pending and runs nothing. The turn
 * goes on once its last waiting call is decided, with every decision taken
 * in it: a decision holds for its turn, even when a rule that reads page
 * state would now ask about another call, or no longer about this one.
 */
import { AgentError } from '../errors';
import type { AgentEvent } from '../session/event';
import { functionCalls } from '../session/parts';
import { openApproval } from '../session/open-approval';
import type { EventDraft, RunStart } from './types';

export function decisionStart(
  history: readonly AgentEvent[],
  sessionId: string,
  decision: { callId: string; granted: boolean; reason?: string },
): RunStart {
  const open = openApproval(history);
  if (!open || !open.undecided.includes(decision.callId))
    throw approvalNotPending(decision.callId, sessionId, open?.undecided);
  const { callId, granted, reason } = decision;
  const invocationId = open.request.invocationId;
  const undecided = open.undecided.filter((id) => id !== callId);
  const recorded: EventDraft = {
    author: 'user',
    invocationId,
    actions: { approval: { callId, granted, ...(reason && { reason }) } },
    ...(undecided.length > 0 && { endReason: 'awaiting-approval' as const }),
  };
  // Other calls of that turn still wait: record this decision and stop there.
  if (undecided.length > 0) return { kind: 'record', before: [recorded], invocationId };
  const args = open.asked.find((call) => call.callId === callId)!.args;
  const decided = new Map(open.decided).set(callId, { granted, reason, args });
  return {
    kind: 'calls',
    agentName: open.modelEvent.author,
    calls: functionCalls(open.modelEvent),
    decided,
    before: [recorded],
    invocationId,
  };
}

function approvalNotPending(callId: string, sessionId: string, undecided: readonly string[] = []): AgentError {
  const waiting = undecided.length
    ? ` The calls waiting now: ${undecided.join(', ')} (agent.pendingApprovals()).`
    : ' No call is waiting for approval now.';
  return new AgentError(
    'approval-not-pending',
    `Call "${callId}" is not waiting for approval in session ${sessionId}: it was decided or run already, or never asked.${waiting} Nothing was run.`,
    { details: { callId } },
  );
}
