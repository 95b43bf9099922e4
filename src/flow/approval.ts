/**
 * What the log says about approvals. A request for approval is an event of
 * its own; decisions are events that follow it. A decision counts only for a
 * call of the open request it follows, so no decision recorded anywhere else
 * (an earlier turn, an imported file) can approve a call; and a request
 * counts only if it keeps the rule of session/approval-request-rule.ts.
 */
import { approvalRequestProblem } from '../session/approval-request-rule';
import type { AgentEvent, ApprovalRequest, FunctionCall } from '../session/event';

export interface Decision {
  granted: boolean;
  reason?: string;
  /** The arguments the person saw: the tool's own schema's output. */
  args?: unknown;
}

export interface OpenApproval {
  /** The event that asked. */
  request: AgentEvent;
  /** The model event whose calls are asked about. */
  modelEvent: AgentEvent;
  asked: ApprovalRequest[];
  /** Decisions recorded after the request, by call id. */
  decided: Map<string, Decision>;
  undecided: string[];
}

/** The request the session is paused on, if any: the last one, unless tool answers followed it. */
export function openApproval(history: readonly AgentEvent[]): OpenApproval | undefined {
  const at = history.findLastIndex((event) => event.actions?.requestApproval !== undefined);
  if (at === -1) return undefined;
  const after = history.slice(at + 1);
  if (after.some((event) => event.content?.role === 'tool' && !event.late)) return undefined;
  const request = history[at]!;
  const before = history.slice(0, at);
  const modelEvent = before.findLast((event) => event.content?.role === 'model');
  const asked = request.actions!.requestApproval!;
  // A request that breaks the rule (a forged or edited log) asks nothing: no decision on it can run anything.
  const answered = answeredIds(before);
  if (!modelEvent || approvalRequestProblem(asked, functionCalls(modelEvent), (id) => answered.has(id)))
    return undefined;
  const askedIds = new Set(asked.map((call) => call.callId));
  const decided = new Map<string, Decision>();
  for (const event of after) {
    const approval = event.actions?.approval;
    if (!approval || !askedIds.has(approval.callId) || decided.has(approval.callId)) continue;
    const args = asked.find((call) => call.callId === approval.callId)!.args;
    decided.set(approval.callId, { granted: approval.granted, reason: approval.reason, args });
  }
  const undecided = asked.map((call) => call.callId).filter((id) => !decided.has(id));
  return { request, modelEvent, asked, decided, undecided };
}

/** The calls the events answer (late answers do not count: they are recorded, never used). */
function answeredIds(events: readonly AgentEvent[]): Set<string> {
  const ids = new Set<string>();
  for (const event of events)
    if (event.content?.role === 'tool' && !event.late)
      for (const part of event.content.parts) if ('functionResponse' in part) ids.add(part.functionResponse.id);
  return ids;
}

export function functionCalls(event: AgentEvent): FunctionCall[] {
  return (event.content?.parts ?? []).flatMap((part) => ('functionCall' in part ? [part.functionCall] : []));
}

/** The message a model reads when a person said no. */
export function rejectionMessage(decision: Decision): string {
  return `The user rejected this call${decision.reason ? `: ${decision.reason}` : ''}. Do not retry it; ask the user what to do instead.`;
}
