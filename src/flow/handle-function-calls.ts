/**
 * The function calls of one model turn, after ADK's handleFunctionCalls: the
 * per-step limit, the approval gate, then each call answered (read-only
 * calls at once, others in the model's order), and all answers recorded as
 * one event. See approval-gate.ts, answer-call.ts and merge-answers.ts.
 */
import { AgentError, runAbortedError } from '../errors';
import type { FunctionCall } from '../session/event';
import { functionResponses } from '../session/parts';
import { raceAbort } from './abortable';
import { isBuiltin } from './agents';
import { answerCall, type CallVerdicts } from './answer-call';
import { approvalGate } from './approval-gate';
import { longRunningArtifacts, mergeAnswers } from './merge-answers';
import { record } from './record';
import type { CallResponse as Answer, CallsOutcome, Decision, EventDraft, Invocation } from './types';

export async function handleFunctionCalls(
  inv: Invocation,
  agentName: string,
  calls: FunctionCall[],
  known: { refused?: ReadonlyMap<string, string>; decided?: ReadonlyMap<string, Decision> } = {},
): Promise<CallsOutcome> {
  const startedAt = Date.now();
  const t0 = performance.now();
  const timing = () => ({ startedAt, ms: performance.now() - t0 });

  if (calls.length > inv.limits.maxToolCallsPerStep) {
    const message = `Not run: the model asked for ${calls.length} tool calls in one step and the limit is ${inv.limits.maxToolCallsPerStep} (createAgent({ maxToolCallsPerStep })).`;
    await record(inv, {
      author: agentName,
      content: {
        role: 'tool',
        parts: calls.map((call) => ({
          functionResponse: { id: call.id, name: call.name, response: null, error: message },
        })),
      },
      error: { code: 'max-tool-calls', message },
      endReason: 'max-tool-calls',
      timing: timing(),
    });
    return { kind: 'end', reason: 'max-tool-calls' };
  }

  const refusedBefore = known.refused ?? new Map<string, string>();
  const gate = await approvalGate(inv, agentName, calls, {
    skip: new Set(refusedBefore.keys()),
    decided: known.decided,
  });
  if (gate.paused) return { kind: 'end', reason: 'awaiting-approval' };
  const verdicts: CallVerdicts = { refused: new Map([...refusedBefore, ...gate.refused]), decided: gate.decided };

  const allReadOnly = calls.every((call) => inv.tools.get(call.name)?.annotations.readOnly || isBuiltin(call.name));
  const settled = new Map<string, Answer>();
  const answer = (call: FunctionCall) =>
    answerCall(inv, agentName, call, verdicts).then((a) => {
      settled.set(call.id, a);
      return a;
    });
  let answers: Answer[];
  try {
    answers = allReadOnly
      ? await raceAbort(Promise.all(calls.map(answer)), inv.signal)
      : await inSequence(inv, calls, answer);
  } catch (error) {
    if (!inv.signal.aborted) throw error;
    return recordAborted(inv, agentName, calls, settled, timing());
  }

  const merged = mergeAnswers(answers, agentName, timing());
  if (merged.answered) {
    const stored = await recordAnswers(inv, merged.answered);
    if (stored === 'quota-exceeded') return { kind: 'end', reason: 'error' };
  }
  if (merged.endReason === 'error') return { kind: 'end', reason: 'error' };
  for (const a of answers)
    if (!a.response.error && !isBuiltin(a.response.name)) inv.selector?.afterCall(a.response.name);
  if (merged.longRunning.length) {
    await record(inv, {
      author: agentName,
      longRunningToolIds: merged.longRunning,
      endReason: 'long-running',
      artifacts: longRunningArtifacts(answers, merged.longRunning),
    });
  }
  return merged.endReason ? { kind: 'end', reason: merged.endReason } : { kind: 'continue' };
}

async function inSequence(
  inv: Invocation,
  calls: FunctionCall[],
  answer: (call: FunctionCall) => Promise<Answer>,
): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (const call of calls) answers.push(await raceAbort(answer(call), inv.signal));
  return answers;
}

/**
 * When the answers do not fit the storage quota, every call is still answered
 * (with that error, in a small event) so none is left open, and the run ends.
 */
async function recordAnswers(inv: Invocation, draft: EventDraft): Promise<'stored' | 'quota-exceeded'> {
  try {
    await record(inv, draft);
    return 'stored';
  } catch (error) {
    if (!(error instanceof AgentError) || error.code !== 'quota-exceeded') throw error;
    const parts = functionResponses(draft).map((response) => ({
      functionResponse: { ...response, response: null, error: `The result could not be stored: ${error.message}` },
    }));
    try {
      await record(inv, {
        author: draft.author,
        content: { role: 'tool', parts },
        error: { code: error.code, message: error.message },
        endReason: 'error',
      });
    } catch {
      throw error;
    }
    return 'quota-exceeded';
  }
}

/** On abort: every unfinished call is answered 'aborted' so the history stays well formed. */
async function recordAborted(
  inv: Invocation,
  agentName: string,
  calls: FunctionCall[],
  settled: ReadonlyMap<string, Answer>,
  timing: { startedAt: number; ms: number },
): Promise<CallsOutcome> {
  const parts = calls.map((call) => ({
    functionResponse: settled.get(call.id)?.response ?? {
      id: call.id,
      name: call.name,
      response: null,
      error: 'aborted: the run was stopped before this call finished.',
    },
  }));
  await record(inv, {
    author: agentName,
    content: { role: 'tool', parts },
    error: { code: 'aborted', message: runAbortedError().message },
    endReason: 'aborted',
    timing,
  });
  return { kind: 'end', reason: 'aborted' };
}
