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

/** A model turn's calls by id, made once per turn so that each request is checked in the time of its own size. */
export interface TurnCalls {
  byId: Map<string, FunctionCall>;
  /** An id two calls of the turn share, if any. */
  duplicate?: string;
}

export function turnCalls(calls: readonly FunctionCall[]): TurnCalls {
  const byId = new Map<string, FunctionCall>();
  let duplicate: string | undefined;
  for (const call of calls) {
    if (byId.has(call.id)) duplicate ??= call.id;
    else byId.set(call.id, call);
  }
  return { byId, ...(duplicate !== undefined && { duplicate }) };
}

/**
 * Why the request cannot stand; undefined when it can. `answered`: a call of
 * the turn answered before the request, if any.
 */
export function approvalRequestProblem(
  asked: readonly ApprovalRequest[],
  turn: TurnCalls | undefined,
  answered: string | undefined,
): string | undefined {
  if (!turn) return 'it asks about calls, but no model event made any before it';
  if (turn.duplicate !== undefined)
    return `its turn has two calls with the id "${turn.duplicate}" (call ids are unique)`;
  const seen = new Set<string>();
  for (const { callId, name } of asked) {
    const call = turn.byId.get(callId);
    if (!call) return `it asks about call "${callId}", which its turn did not make`;
    if (call.name !== name) return `it shows call "${callId}" as "${String(name)}", but that call is "${call.name}"`;
    if (seen.has(callId)) return `it asks about call "${callId}" twice`;
    seen.add(callId);
  }
  if (answered !== undefined) return `call "${answered}" of its turn was answered already`;
  return undefined;
}
