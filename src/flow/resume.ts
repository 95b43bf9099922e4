/**
 * How a run starts, decided from the session as read under its lock: a new
 * message, a person's decision on a paused call, or a long-running call's
 * result. Checking that a call is pending and recording what answers it
 * happen under one lock, so a second click finds nothing pending and runs
 * nothing.
 */
import { AgentError } from '../errors';
import type { AgentEvent } from '../session/event';
import type { Session } from '../session/store';
import { resultError } from '../tools/bounded-result';
import { jsonProblem } from '../tools/plain-json';
import { functionCalls, openApproval } from './approval';
import type { EventDraft } from './record';
import type { InvocationStart } from './run-invocation';

export type Started = InvocationStart & {
  /** The invocation to continue; absent: a new one. */
  invocationId?: string;
};

/** A new message. Calls still waiting for approval are rejected first, so nothing runs behind the person's back. */
export function messageStart(history: readonly AgentEvent[], text: string, messageId: string): Started {
  // Sent again after a crash, but stored after all: never twice.
  if (history.some((event) => event.id === messageId)) return { kind: 'nothing' };
  const open = openApproval(history);
  return { kind: 'user', text, messageId, before: open ? supersede(open) : undefined };
}

export function decisionStart(
  history: readonly AgentEvent[],
  sessionId: string,
  decision: { callId: string; granted: boolean; reason?: string },
): Started {
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

/** A long-running call's result. Pending is read from the session record, so it holds however long ago the call was made. */
export function resolutionStart(
  session: Session,
  history: readonly AgentEvent[],
  callId: string,
  result: unknown,
): Started {
  const open = session.openCalls?.[callId];
  const pending = session.openCalls
    ? open?.waiting === 'long-running'
    : history.some((event) => event.longRunningToolIds?.includes(callId)) &&
      !history.some(
        (event) =>
          !event.late && event.content?.parts.some((p) => 'functionResponse' in p && p.functionResponse.id === callId),
      );
  const maker = history.find((e) => e.content?.role === 'model' && functionCalls(e).some((c) => c.id === callId));
  const name =
    open?.name ??
    maker?.content?.parts.flatMap((p) =>
      'functionCall' in p && p.functionCall.id === callId ? [p.functionCall.name] : [],
    )[0];
  if (!pending || !name) {
    throw new AgentError(
      'not-pending',
      `No long-running call "${callId}" is waiting for a result in session ${session.id} (it was answered already, or never made).`,
    );
  }
  // The result enters the session and the model's next prompt as a tool's would: by the same rule.
  const problem = jsonProblem(result, 'result');
  if (problem) throw resultError(`agent.resolveTool("${callId}") was given`, problem);
  const invocationId =
    open?.invocationId ?? history.find((event) => event.longRunningToolIds?.includes(callId))!.invocationId;
  const response: EventDraft = {
    author: open?.author ?? maker?.author ?? 'assistant',
    invocationId,
    content: { role: 'tool', parts: [{ functionResponse: { id: callId, name, response: result } }] },
  };
  return { kind: 'continue', before: [response], invocationId };
}

/**
 * A new message while calls still wait for approval moves on without them:
 * each undecided call is rejected and every call of that turn is answered, so
 * the history stays well formed and nothing runs behind the person's back.
 */
function supersede(open: NonNullable<ReturnType<typeof openApproval>>): EventDraft[] {
  const reason = 'the user sent a new message instead of deciding';
  const decisions: EventDraft[] = open.undecided.map((callId) => ({
    author: 'user',
    actions: { approval: { callId, granted: false, reason } },
  }));
  const responses: EventDraft = {
    author: open.modelEvent.author,
    content: {
      role: 'tool',
      parts: functionCalls(open.modelEvent).map((call) => ({
        functionResponse: { id: call.id, name: call.name, response: null, error: `Not run: ${reason}.` },
      })),
    },
  };
  return [...decisions, responses];
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
