/**
 * The approval gate of one model turn, after validation. The calls that may
 * need a person go to the page in one hop: the page parses each with its
 * tool's own schema, so the rule and the person see what `execute` would
 * get, refuses those whose arguments do not parse, and, with an onApproval,
 * asks the person at once. Without onApproval the run pauses here, and the
 * request is in the log, so agent.approve() works after a reload too. A
 * decision recorded before a resume is applied here as well.
 */
import { mayNeedApproval } from '../../tools/needs-approval';
import type { ApprovalRequest } from '../../session/event';
import { record } from '../record';
import { runCallback } from '../run-callback';
import type { Decision, Turn, TurnCall, TurnProcessor } from '../types';
import { refusal } from './refusal';

export const approvalGate: TurnProcessor = async (inv, turn) => {
  const asking: TurnCall[] = [];
  for (const call of turn.calls) {
    if (call.response) continue;
    if (call.decision) rejected(turn, call);
    else if (call.declaration && mayNeedApproval(call.declaration.needsApproval)) asking.push(call);
  }
  if (asking.length === 0) return;
  const prepared = await runCallback(
    inv,
    () =>
      inv.hooks.prepareCalls(
        inv.invocationId,
        asking.map((call) => ({ callId: call.call.id, name: call.call.name, args: call.args })),
      ),
    'needsApproval',
  );
  const waiting: ApprovalRequest[] = [];
  for (const [i, call] of asking.entries()) {
    const outcome = prepared[i];
    if (!outcome) throw new Error(`The page prepared ${prepared.length} of ${asking.length} calls.`);
    if (!outcome.ok) {
      call.response = refusal(turn, call, outcome.error.message, outcome.error.code);
      continue;
    }
    if (!outcome.needsApproval) continue;
    if (outcome.granted === undefined) {
      waiting.push({ callId: call.call.id, name: call.call.name, args: outcome.args });
      continue;
    }
    await record(inv, { author: 'user', actions: { approval: { callId: call.call.id, granted: outcome.granted } } });
    call.decision = { granted: outcome.granted, args: outcome.args };
    rejected(turn, call);
  }
  if (waiting.length === 0) return;
  await record(inv, { author: turn.agentName, actions: { requestApproval: waiting }, endReason: 'awaiting-approval' });
  return 'paused';
};

/** A person's no answers the call: the model reads it as the tool's response. */
function rejected(turn: Turn, call: TurnCall): void {
  if (call.decision && !call.decision.granted)
    call.response = refusal(turn, call, rejectionMessage(call.decision), 'tool-rejected');
}

/** The message a model reads when a person said no. */
function rejectionMessage(decision: Decision): string {
  return `The user rejected this call${decision.reason ? `: ${decision.reason}` : ''}. Do not retry it; ask the user what to do instead.`;
}
