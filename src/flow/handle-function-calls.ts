/**
 * The function calls of one model turn, after ADK's handleFunctionCalls: an
 * ordered list of call processors, each a file of call-processors/.
 *
 *   validate → grounded values → one item each → only what is asked → repeat guard → approval gate
 *   → before-tool → run → after-tool → merge
 *
 * The first six see the whole turn: every call is checked against its
 * tool's JSON Schema (and its addresses against the conversation) before
 * anyone is asked, and the calls that may need a person go to the page in
 * one hop. The next three are taken for each call
 * in the model's order (all at once when every call is read-only). The turn
 * ends in one merged event. A step that answers a call (a refusal, a
 * person's no, a callback's result) sets its response; the steps after it
 * leave that call alone. A turn that is stopped (abort) or fails (a callback
 * throws) on its way still answers every call it made before the run ends,
 * so the log is whole and nothing is left open for a later run to pick up.
 */
import { AgentError, isAgentGone, messageOf, runAbortedError } from '../errors';
import type { FunctionCall } from '../session/event';
import { raceAbort } from './abortable';
import { isBuiltin } from './agents';
import { afterTool } from './call-processors/after-tool';
import { approvalGate } from './call-processors/approval-gate';
import { beforeTool } from './call-processors/before-tool';
import { recordTurn, timingOf } from './call-processors/merge-responses';
import { refusal } from './call-processors/refusal';
import { runTool } from './call-processors/run-tool';
import { validateCalls } from './call-processors/validate-call';
import { askedOrder } from './decisions/asked-order';
import { groundValues } from './decisions/grounded-values';
import { oneItemEach } from './decisions/one-item-each';
import { onlyWhatIsAsked } from './decisions/only-what-is-asked';
import { record } from './record';
import { repeatGuard } from './call-processors/repeat-guard';
import type {
  CallProcessor,
  CallsOutcome,
  Decision,
  Invocation,
  Refused,
  Turn,
  TurnCall,
  TurnProcessor,
} from './types';

export const turnProcessors: readonly TurnProcessor[] = [
  validateCalls,
  groundValues,
  askedOrder,
  oneItemEach,
  onlyWhatIsAsked,
  repeatGuard,
  approvalGate,
];
export const callProcessors: readonly CallProcessor[] = [beforeTool, runTool, afterTool];

export async function handleFunctionCalls(
  inv: Invocation,
  agentName: string,
  calls: readonly FunctionCall[],
  known: { refused?: ReadonlyMap<string, Refused>; decided?: ReadonlyMap<string, Decision> } = {},
): Promise<CallsOutcome> {
  const turn = newTurn(inv, agentName, calls, known);
  // Over the limit, the turn first loses the calls its request did not ask for (the 0.5B wrote "add dry cleaning"
  // and nine chores of its own); no page is asked for that. The calls left must be within the limit.
  const early = calls.length > inv.limits.maxToolCallsPerStep;
  if (early) await onlyWhatIsAsked(inv, turn);
  if (turn.calls.filter((call) => !call.response).length > inv.limits.maxToolCallsPerStep)
    return refuseTooMany(inv, turn);
  let settled: Set<TurnCall> | undefined;
  try {
    for (const processor of turnProcessors.filter((processor) => !(early && processor === onlyWhatIsAsked)))
      if ((await processor(inv, turn)) === 'paused') return { kind: 'end', reason: 'awaiting-approval' };
    // Calls answered before their own steps (refused, rejected) are settled; the others once their last step is done.
    const done = (settled = new Set(turn.calls.filter((call) => call.response)));
    const handle = async (call: TurnCall) => {
      for (const processor of callProcessors) await processor(inv, turn, call);
      done.add(call);
    };
    if (turn.calls.every((call) => call.declaration?.annotations.readOnly || isBuiltin(call.call.name)))
      await raceAbort(Promise.all(turn.calls.map(handle)), inv.signal);
    else for (const call of turn.calls) await raceAbort(handle(call), inv.signal);
  } catch (error) {
    // A dead worker or a closed agent records nothing more; the session's next run answers its calls 'interrupted'.
    if (isAgentGone(error)) throw error;
    // Before the calls' own steps (the approval gate), an answer given so far (a refusal, a no) is final.
    const final = settled ?? new Set(turn.calls.filter((call) => call.response));
    if (inv.signal.aborted) return recordAborted(inv, turn, final);
    await recordUnrun(inv, turn, final, error).catch(() => undefined);
    throw error;
  }
  return recordTurn(inv, turn);
}

/** A model turn's calls as the processors first see them: refusals made earlier and decisions recorded before a resume included. */
export function newTurn(
  inv: Invocation,
  agentName: string,
  calls: readonly FunctionCall[],
  known: { refused?: ReadonlyMap<string, Refused>; decided?: ReadonlyMap<string, Decision> },
): Turn {
  const turn: Turn = {
    agentName,
    startedAt: Date.now(),
    t0: performance.now(),
    calls: calls.map((call) => ({
      call,
      // inv.tools holds the page's tools only (the worker refuses one that claims to be built in).
      declaration: isBuiltin(call.name) ? undefined : inv.tools.get(call.name),
      args: call.args,
      decision: known.decided?.get(call.id),
    })),
  };
  for (const call of turn.calls) {
    const refused = known.refused?.get(call.call.id);
    if (refused !== undefined) call.response = refusal(turn, call, refused.message, refused.code);
  }
  return turn;
}

/** More calls in one step than the page allows: none runs, each is answered why, and the run ends. */
async function refuseTooMany(inv: Invocation, turn: Turn): Promise<CallsOutcome> {
  const message = `Not run: the model asked for ${turn.calls.length} tool calls in one step and the limit is ${inv.limits.maxToolCallsPerStep} (createAgent({ maxToolCallsPerStep })).`;
  await record(inv, {
    author: turn.agentName,
    content: {
      role: 'tool',
      parts: turn.calls.map(({ call }) => ({
        functionResponse: { id: call.id, name: call.name, response: null, error: message, code: 'max-tool-calls' },
      })),
    },
    error: { code: 'max-tool-calls', message },
    endReason: 'max-tool-calls',
    timing: timingOf(turn),
  });
  return { kind: 'end', reason: 'max-tool-calls' };
}

/** On abort: every unfinished call is answered 'aborted' so the history stays well formed. */
async function recordAborted(inv: Invocation, turn: Turn, settled: ReadonlySet<TurnCall>): Promise<CallsOutcome> {
  await record(inv, {
    author: turn.agentName,
    content: {
      role: 'tool',
      parts: answered(turn, settled, 'aborted: the run was stopped before this call finished.', 'aborted'),
    },
    error: { code: 'aborted', message: runAbortedError().message },
    endReason: 'aborted',
    timing: timingOf(turn),
  });
  return { kind: 'end', reason: 'aborted' };
}

/** On a failure that ends the run: every unfinished call is answered with it; the run's ending follows (run-invocation.ts). */
async function recordUnrun(inv: Invocation, turn: Turn, settled: ReadonlySet<TurnCall>, error: unknown): Promise<void> {
  const code = error instanceof AgentError ? error.code : undefined;
  await record(inv, {
    author: turn.agentName,
    content: { role: 'tool', parts: answered(turn, settled, `Not run: ${messageOf(error)}`, code) },
    timing: timingOf(turn),
  });
}

/** The turn's responses: those of settled calls, and `error` for every other. */
function answered(turn: Turn, settled: ReadonlySet<TurnCall>, error: string, code?: string) {
  return turn.calls.map((call) => ({
    functionResponse: (settled.has(call) && call.response?.response) || {
      id: call.call.id,
      name: call.call.name,
      response: null,
      error,
      ...(code && { code }),
    },
  }));
}
