/**
 * What a request for approval may ask. It asks about calls of its turn (the
 * model event before it), each named by its id and its tool's name and shown
 * with the arguments the person approves, while none of that turn's calls is
 * answered, and a call at most once; the turn's call ids are unique. The
 * runtime's own requests always are so. A log that says otherwise was forged
 * or edited: an import refuses it, and the runtime reading one treats the
 * request as asking nothing, so that no decision on it runs a call the person
 * was not shown, or a call a second time.
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
  if (asked.length === 0) return 'it asks about no call (a request names each call it asks about)';
  const seen = new Set<string>();
  for (const entry of asked) {
    const { callId, name } = entry;
    const call = turn.byId.get(callId);
    if (!call) return `it asks about call "${callId}", which its turn did not make`;
    if (call.name !== name) return `it shows call "${callId}" as "${String(name)}", but that call is "${call.name}"`;
    if (seen.has(callId)) return `it asks about call "${callId}" twice`;
    // What a person approves is what they were shown; a request that shows nothing cannot be approved.
    if (entry.args === undefined)
      return `it shows no arguments for call "${callId}" (a person approves the arguments they are shown)`;
    seen.add(callId);
  }
  if (answered !== undefined) return `call "${answered}" of its turn was answered already`;
  return undefined;
}

/**
 * Why arguments shown for a call's approval are not that call's; undefined
 * when they are. The runtime shows what the tool's schema makes of the call,
 * which a reader without the page's schemas (an import) cannot compute; it
 * can hold the request to this much: everything the call gives is shown,
 * unchanged, and only what a schema's default adds may be shown besides.
 * The page checks the rest when the call runs: only the arguments a person
 * approved run (tools/invoke-tool.ts).
 */
export function shownArgsProblem(call: FunctionCall, shown: unknown): string | undefined {
  if (keepsEveryArgument(call.args, shown)) return undefined;
  return `it shows call "${call.id}" (${call.name}) with arguments that are not the call's: the call has ${preview(call.args)}, the request shows ${preview(shown)}`;
}

function keepsEveryArgument(given: unknown, shown: unknown): boolean {
  if (Array.isArray(given))
    return (
      Array.isArray(shown) && shown.length === given.length && given.every((v, i) => keepsEveryArgument(v, shown[i]))
    );
  if (isRecord(given))
    return (
      isRecord(shown) &&
      Object.keys(given).every((key) => Object.hasOwn(shown, key) && keepsEveryArgument(given[key], shown[key]))
    );
  return Object.is(given, shown);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const PREVIEW_LENGTH = 200;

function preview(value: unknown): string {
  const json = JSON.stringify(value) ?? String(value);
  return json.length > PREVIEW_LENGTH ? `${json.slice(0, PREVIEW_LENGTH - 1)}…` : json;
}
