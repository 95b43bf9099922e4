/**
 * What the log says about approvals: the calls of the last model turn that
 * wait for a person, and the decisions taken on them. Requests and decisions
 * are events of their own, after the turn's model event. A turn may be asked
 * about more than once (a rule that reads page state may want a person for a
 * call only once another was decided), and a decision holds for its turn,
 * whatever a rule says later. A decision counts only for a call that a
 * request before it asked about, and only until a later request asks about
 * that call again; so no decision recorded anywhere else (an earlier turn,
 * an imported file, which asks again: jsonl.ts) can approve a call. A turn
 * any of whose requests breaks the rule of approval-request-rule.ts asks
 * nothing.
 */
import { approvalRequestProblem, turnCalls } from './approval-request-rule';
import type { AgentEvent, ApprovalRequest } from './event';
import { functionCalls, functionResponses } from './parts';

/** A person's decision on an asked call, with the arguments that call was shown with. */
export interface ApprovalDecision {
  granted: boolean;
  reason?: string;
  args: unknown;
}

export interface OpenApproval {
  /** The turn's last request. */
  request: AgentEvent;
  /** The model event whose calls are asked about. */
  modelEvent: AgentEvent;
  /** Every call the turn's requests asked about, in the order first asked, each with the arguments its latest request shows. */
  asked: ApprovalRequest[];
  /** The decisions that count, by call id. */
  decided: Map<string, ApprovalDecision>;
  undecided: string[];
}

/** The turn the session is paused on, if any: the last request's, unless the turn was answered or moved on since. */
export function openApproval(history: readonly AgentEvent[]): OpenApproval | undefined {
  const at = history.findLastIndex((event) => event.actions?.requestApproval !== undefined);
  if (at === -1) return undefined;
  for (let i = at + 1; i < history.length; i++) {
    const role = history[i]!.content?.role;
    if (role === 'model' || (role === 'tool' && !history[i]!.late)) return undefined;
  }
  const made = history.findLastIndex((event, i) => i < at && event.content?.role === 'model');
  if (made === -1) return undefined;
  const modelEvent = history[made]!;
  const turn = turnCalls(functionCalls(modelEvent));
  // A call of the turn answered anywhere before a request (a reused id in a forged log) breaks the rule too.
  let answered: string | undefined;
  for (let i = 0; i < made && answered === undefined; i++)
    if (!history[i]!.late) answered = functionResponses(history[i]!).find(({ id }) => turn.byId.has(id))?.id;
  const asked = new Map<string, ApprovalRequest>();
  const decided = new Map<string, ApprovalDecision>();
  for (let i = made + 1; i < history.length; i++) {
    const event = history[i]!;
    if (!event.late) for (const { id } of functionResponses(event)) if (turn.byId.has(id)) answered ??= id;
    const approval = event.actions?.approval;
    const shown = approval && asked.get(approval.callId);
    if (shown && !decided.has(approval.callId)) {
      const { granted, reason } = approval;
      decided.set(approval.callId, { granted, ...(reason !== undefined && { reason }), args: shown.args });
    }
    const requested = event.actions?.requestApproval;
    if (!requested) continue;
    // A request that breaks the rule (a forged or edited log) leaves its turn asking nothing: no decision on it can run anything.
    if (approvalRequestProblem(requested, turn, answered)) return undefined;
    for (const entry of requested) {
      asked.set(entry.callId, entry);
      decided.delete(entry.callId);
    }
  }
  const undecided = [...asked.keys()].filter((id) => !decided.has(id));
  return { request: history[at]!, modelEvent, asked: [...asked.values()], decided, undecided };
}

/** The calls that wait for a person now, with the arguments they are shown (agent.pendingApprovals()). */
export function pendingApprovals(history: readonly AgentEvent[]): ApprovalRequest[] {
  const open = openApproval(history);
  return open ? open.asked.filter((call) => !open.decided.has(call.callId)) : [];
}
