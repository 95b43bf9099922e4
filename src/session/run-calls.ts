/**
 * What a run did, call by call: each call the run made or answered, with its
 * arguments and what became of it, in the run's order. Read from the run's
 * events alone (the log is the truth), so a page can tell a done job from a
 * reply that only says so: a call that was refused, not approved or failed
 * is there with its reason, and a reply with no call behind it has none.
 */
import type { AgentErrorCode } from '../errors';
import { isInterruption } from './call-ledger';
import type { AgentEvent, ApprovalRequest, FunctionResponse } from './event';
import { functionCalls, functionResponses } from './parts';

/**
 * - 'ran': the tool ran and answered (`result`);
 * - 'failed': it ran, or began to, and failed (`error`: a throw, a timeout, a result that cannot cross);
 * - 'refused': it never ran: its arguments did not fit its schema, or held an address the visitor never gave
 *   (`refusedBy: 'validation'`), or a rule said no (`refusedBy: 'rule'`: a repeat, too many calls in a step, a
 *   tool the step does not allow);
 * - 'not-approved': a person said no;
 * - 'awaiting-approval': the run ended waiting for a person's decision (agent.approve / agent.reject);
 * - 'long-running': the tool answers later (agent.resolveTool);
 * - 'stopped': the run was stopped, or a reload or a crash cut it off, before the call finished.
 */
export type CallOutcome =
  'ran' | 'failed' | 'refused' | 'not-approved' | 'awaiting-approval' | 'long-running' | 'stopped';

export interface RunCall {
  /** The runtime's call id (approve, reject and resolveTool take it). */
  id: string;
  name: string;
  /** The arguments the model wrote (for a call made in an earlier run, those its approval request showed). */
  args: unknown;
  outcome: CallOutcome;
  /** Set when outcome is 'refused': its arguments, or a rule of the page or the runtime. */
  refusedBy?: 'validation' | 'rule';
  /** What the tool returned, as the model read it ('ran'). */
  result?: unknown;
  /** What the model was told instead, with its stable code ('failed', 'refused', 'not-approved', 'stopped'). */
  error?: { code?: string; message: string };
}

/** Refusals by the call's arguments: the model may correct them. */
const BY_VALIDATION: readonly string[] = [
  ...(['invalid-arguments', 'unknown-tool', 'unreadable-call'] satisfies AgentErrorCode[]),
  // The decision layer's: an address the visitor never gave (flow/decisions/grounded-values.ts), several items
  // packed in one call (one-item-each.ts), a sort the other way than asked (asked-order.ts), a thing the request
  // did not ask for (only-what-is-asked.ts).
  'ungrounded-value',
  'several-in-one',
  'order-not-asked',
  'beyond-request',
];
/** Refusals by a rule of the page or the runtime, whatever the arguments. */
const BY_RULE: readonly string[] = ['repeated-call', 'max-tool-calls', 'tool-not-allowed'] satisfies AgentErrorCode[];

/**
 * The calls of a run's events (stored ones; partial events are skipped), in the order they first appear.
 * `earlier`: calls made in an earlier run that this one answers (a decision's), so their arguments are known.
 */
export function runCalls(events: readonly AgentEvent[], earlier: readonly ApprovalRequest[] = []): RunCall[] {
  const calls = new Map<string, RunCall>();
  const known = new Map(earlier.map((call) => [call.callId, call]));
  const callOf = (id: string, name: string): RunCall => {
    let call = calls.get(id);
    if (!call) {
      call = { id, name, args: known.get(id)?.args, outcome: 'stopped' };
      calls.set(id, call);
    }
    return call;
  };
  for (const event of events) {
    if (event.partial) continue;
    for (const made of functionCalls(event))
      calls.set(made.id, { id: made.id, name: made.name, args: made.args, outcome: 'stopped' });
    for (const asked of event.actions?.requestApproval ?? []) {
      const call = callOf(asked.callId, asked.name);
      call.args ??= asked.args;
      call.outcome = 'awaiting-approval';
    }
    const decided = event.actions?.approval;
    if (decided) {
      const call = calls.get(decided.callId);
      if (call && !decided.granted) call.outcome = 'not-approved';
    }
    for (const id of event.longRunningToolIds ?? []) {
      const call = calls.get(id);
      if (call) call.outcome = 'long-running';
    }
    for (const response of functionResponses(event)) {
      // A late answer (the call had ended) is recorded, never used: it changes nothing the run did.
      if (event.late) continue;
      settle(callOf(response.id, response.name), response);
    }
  }
  return [...calls.values()];
}

function settle(call: RunCall, response: FunctionResponse): void {
  delete call.refusedBy;
  delete call.result;
  delete call.error;
  if (response.error === undefined) {
    call.outcome = 'ran';
    call.result = response.response;
    return;
  }
  call.error = { ...(response.code !== undefined && { code: response.code }), message: response.error };
  const code = response.code ?? '';
  if (code === 'tool-rejected') call.outcome = 'not-approved';
  else if (code === 'aborted' || isInterruption(response)) call.outcome = 'stopped';
  else {
    const refusedBy = refusalOf(code);
    call.outcome = refusedBy ? 'refused' : 'failed';
    if (refusedBy) call.refusedBy = refusedBy;
  }
}

/** What refused a call its response's code says never ran: its arguments, or a rule; undefined if it ran or failed. */
export function refusalOf(code: string | undefined): RunCall['refusedBy'] {
  if (code === undefined) return undefined;
  if (BY_VALIDATION.includes(code)) return 'validation';
  if (BY_RULE.includes(code)) return 'rule';
  return undefined;
}
