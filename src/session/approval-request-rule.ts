/**
 * What a request for approval may ask. It asks about calls of its turn (the
 * model event before it), each named by its id and its tool's name, while
 * none of that turn's calls is answered, and a call at most once; the turn's
 * call ids are unique. The runtime's own requests always are so. A log that
 * says otherwise was forged or edited: an import refuses it, and the runtime
 * reading one treats the request as asking nothing, so that no decision on
 * it runs a call the person was not shown, or a call a second time.
 */
import type { ApprovalRequest, FunctionCall } from './event';

/** Why the request cannot stand; undefined when it can. */
export function approvalRequestProblem(
  asked: readonly ApprovalRequest[],
  turn: readonly FunctionCall[] | undefined,
  isAnswered: (callId: string) => boolean,
): string | undefined {
  if (!turn) return 'it asks about calls, but no model event made any before it';
  const byId = new Map<string, FunctionCall>();
  for (const call of turn) {
    if (byId.has(call.id)) return `its turn has two calls with the id "${call.id}" (call ids are unique)`;
    byId.set(call.id, call);
  }
  const seen = new Set<string>();
  for (const { callId, name } of asked) {
    const call = byId.get(callId);
    if (!call) return `it asks about call "${callId}", which its turn did not make`;
    if (call.name !== name) return `it shows call "${callId}" as "${String(name)}", but that call is "${call.name}"`;
    if (seen.has(callId)) return `it asks about call "${callId}" twice`;
    seen.add(callId);
  }
  const answered = turn.find((call) => isAnswered(call.id));
  if (answered) return `call "${answered.id}" of its turn was answered already`;
  return undefined;
}
