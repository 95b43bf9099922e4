/**
 * The rules every session log keeps, checked event by event where a log
 * comes from outside (an import: the file may come from anywhere). Call ids
 * are unique within a session; an answer names a call made before it, and a
 * call is answered at most once (late answers, which are recorded and never
 * used, aside); a request for approval keeps the rule of
 * approval-request-rule.ts. The runtime's own logs always keep them, so a
 * log that breaks one was forged or edited.
 */
import { approvalRequestProblem, turnCalls, type TurnCalls } from './approval-request-rule';
import type { AgentEvent } from './event';
import { functionCalls, functionResponses } from './parts';

/** A checker for one log: give it the events in order; it says what the first bad one breaks. */
export function logRules(): (event: AgentEvent) => string | undefined {
  const made = new Set<string>();
  const answered = new Set<string>();
  let turn: TurnCalls | undefined;
  /** A call of the last model turn that is answered, if any. */
  let answeredInTurn: string | undefined;
  return (event) => {
    if (event.content?.role === 'model') {
      const calls = functionCalls(event);
      for (const call of calls) {
        if (made.has(call.id)) return `call id "${call.id}" is used twice; call ids are unique within a session`;
        made.add(call.id);
      }
      turn = turnCalls(calls);
      answeredInTurn = undefined;
    }
    for (const { id } of functionResponses(event)) {
      if (!made.has(id)) return `it answers call "${id}", which no earlier event made`;
      if (event.late) continue;
      if (answered.has(id)) return `it answers call "${id}" a second time; a call is answered once`;
      answered.add(id);
      if (turn?.byId.has(id)) answeredInTurn ??= id;
    }
    const asked = event.actions?.requestApproval;
    if (asked) {
      const problem = approvalRequestProblem(asked, turn, answeredInTurn);
      if (problem) return `its request for approval cannot stand: ${problem}`;
    }
    return undefined;
  };
}
