/**
 * The approval gate of one model turn. A call that may need approval is
 * first parsed by the page with the tool's own schema, so the rule and the
 * person see what `execute` would get; a call whose arguments do not parse
 * is refused before anyone is asked. With an onApproval on the page the
 * person decides at once; without, the run pauses here, and the request is
 * in the log, so agent.approve() works after a reload too.
 */
import type { ApprovalRequest, FunctionCall } from '../session/event';
import type { Decision } from './approval';
import { runCallback } from './run-callback';
import { record } from './record';
import type { Invocation } from './types';

export interface GateOutcome {
  /** Decisions for this turn's calls, by call id (made now, or recorded before a resume). */
  decided: Map<string, Decision>;
  /** Calls refused before anyone was asked (their arguments do not parse), with the message the model reads. */
  refused: Map<string, string>;
  /** True when the run pauses for a person. */
  paused: boolean;
}

export async function approvalGate(
  inv: Invocation,
  agentName: string,
  calls: readonly FunctionCall[],
  known: { skip: ReadonlySet<string>; decided?: ReadonlyMap<string, Decision> },
): Promise<GateOutcome> {
  const decided = new Map(known.decided);
  const refused = new Map<string, string>();
  const waiting: ApprovalRequest[] = [];
  for (const call of calls) {
    if (known.skip.has(call.id) || decided.has(call.id)) continue;
    const declaration = inv.tools.get(call.name);
    // inv.tools holds the page's tools only (the worker refuses one that claims to be built in).
    if (!declaration || declaration.needsApproval === false) continue;
    const prepared = await runCallback(inv, () => inv.hooks.prepareCall(call.name, call.args), 'needsApproval');
    if (!prepared.ok) {
      refused.set(call.id, prepared.error.message);
      continue;
    }
    if (!prepared.needsApproval) continue;
    const asked: ApprovalRequest = { callId: call.id, name: call.name, args: prepared.args };
    if (inv.hooks.approve) {
      const granted = (await runCallback(inv, () => inv.hooks.approve!(asked), 'onApproval')) === true;
      await record(inv, { author: 'user', actions: { approval: { callId: call.id, granted } } });
      decided.set(call.id, { granted, args: prepared.args });
    } else waiting.push(asked);
  }
  if (waiting.length) {
    await record(inv, {
      author: agentName,
      actions: { requestApproval: waiting },
      endReason: 'awaiting-approval',
    });
  }
  return { decided, refused, paused: waiting.length > 0 };
}
