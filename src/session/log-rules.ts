/**
 * The rules every session log keeps, checked event by event where a log
 * comes from outside (an import: the file may come from anywhere). Call ids
 * are unique within a session; an answer names a call made before it, and a
 * call is answered at most once (late answers, which are recorded and never
 * used, aside); a request for approval keeps the rule of
 * approval-request-rule.ts. The runtime's own logs always keep them, so a
 * log that breaks one was forged or edited. The ledger (call-ledger.ts)
 * checks them as it folds, so an import reads its file once.
 */
import { applyToLedger, newCallLedger, type CallLedger } from './call-ledger';
import type { AgentEvent } from './event';

/**
 * A checker for one log: give it the events in order, from the first; it
 * says what the first bad one breaks. `ledger`: the one to fold them into,
 * for a caller that asks it more afterwards.
 */
export function logRules(ledger: CallLedger = newCallLedger()): (event: AgentEvent) => string | undefined {
  return (event) => applyToLedger(ledger, event);
}
