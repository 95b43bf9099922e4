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
 * nothing. The ledger (call-ledger.ts) keeps all of this; these are its
 * answers in the shape the flow reads.
 */
import { callLedgerOf, pausedTurn, type ApprovalDecision } from './call-ledger';
import type { AgentEvent, ApprovalRequest } from './event';

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
  const turn = pausedTurn(callLedgerOf(history));
  if (!turn) return undefined;
  const undecided = [...turn.asked.keys()].filter((id) => !turn.decided.has(id));
  return {
    request: turn.pausedOn,
    modelEvent: turn.modelEvent,
    asked: [...turn.asked.values()],
    decided: turn.decided,
    undecided,
  };
}

/** The calls that wait for a person now, with the arguments they are shown (agent.pendingApprovals()). */
export function pendingApprovals(history: readonly AgentEvent[]): ApprovalRequest[] {
  const open = openApproval(history);
  return open ? open.asked.filter((call) => !open.decided.has(call.callId)) : [];
}
