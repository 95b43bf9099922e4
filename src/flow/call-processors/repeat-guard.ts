/**
 * A call the run already made, with the same name and arguments, is not run
 * again: small models loop (Qwen2.5-Coder 0.5B added the same to-do four
 * times in one run), and a page tool that adds, pays or sends must not be
 * repeated by a model that lost its place. The model is told that the result
 * is already above it; a model that repeats again past the page's limit
 * (maxRepeatedCalls) ends the run with `repeated-call`.
 *
 * "The same" is judged against the calls answered in this run since the
 * last call that changed something: a read-only call made again after a
 * change (list, add, list) reads new state and runs. A call its tool failed
 * is not run again the same way either, until something changes: the 0.5B,
 * told `There is no to-do at that place in the list ("the second one")`,
 * wrote complete_todo("the second one") again.
 */
import type { AgentEvent, FunctionCall } from '../../session/event';
import { isBuiltin } from '../agents';
import type { Invocation, TurnCall, TurnProcessor } from '../types';
import { refusal } from './refusal';
import { TOOL_FAILED } from './run-tool';

const REPEATED_CALL = 'repeated-call';

export const repeatGuard: TurnProcessor = (inv, turn) => {
  if (inv.limits.maxRepeatedCalls === Infinity) return;
  const { answered, failed } = answeredSinceLastChange(inv);
  for (const call of turn.calls) {
    if (call.response || isBuiltin(call.call.name)) continue;
    const key = keyOf(call.call.name, call.args);
    // The same call twice in one turn is a repeat too: the first of them runs.
    if (!answered.has(key) && !failed.has(key)) {
      answered.add(key);
      continue;
    }
    inv.run.repeatedCalls = (inv.run.repeatedCalls ?? 0) + 1;
    const over = inv.run.repeatedCalls > inv.limits.maxRepeatedCalls;
    const error = failed.get(key);
    const message = error === undefined ? repeatMessage(call, over) : failedAgainMessage(call, error, over);
    call.response = refusal(turn, call, message, REPEATED_CALL);
    if (over)
      call.response.ends = {
        reason: REPEATED_CALL,
        code: REPEATED_CALL,
        message: `The model called ${call.call.name} again with the same arguments, after it was told its result was already there (${inv.limits.maxRepeatedCalls} repeated call${inv.limits.maxRepeatedCalls === 1 ? '' : 's'} allowed a run: createAgent({ maxRepeatedCalls })). The run ends here; its earlier results stand.`,
      };
  }
};

function repeatMessage(call: TurnCall, over: boolean): string {
  const base = `Not run: ${call.call.name} was already called with these arguments in this request, and its result is above.`;
  return over
    ? `${base} The run ends here.`
    : `${base} Use that result: answer the user in words now, or call another tool.`;
}

function failedAgainMessage(call: TurnCall, error: string, over: boolean): string {
  const base = `Not run: ${call.call.name} failed with these same arguments just before (${error}).`;
  return over
    ? `${base} The run ends here.`
    : `${base} Do not call it the same way again: change the arguments, or answer the user in words.`;
}

/**
 * The calls this run answered since its last answered call that may have changed something: those that ran, and
 * those their tool failed (with the error), which a change may have mended.
 */
function answeredSinceLastChange(inv: Invocation): { answered: Set<string>; failed: Map<string, string> } {
  const calls = new Map<string, FunctionCall>();
  const answered = new Set<string>();
  const failed = new Map<string, string>();
  const run = runEvents(inv.history, inv.invocationId);
  for (const event of run) {
    for (const part of event.content?.parts ?? []) {
      if ('functionCall' in part) calls.set(part.functionCall.id, part.functionCall);
      if (!('functionResponse' in part)) continue;
      const call = calls.get(part.functionResponse.id);
      if (!call) continue;
      const { error, code } = part.functionResponse;
      if (error) {
        if (code === TOOL_FAILED) failed.set(keyOf(call.name, call.args), error);
        continue;
      }
      const changes = !isBuiltin(call.name) && !inv.tools.get(call.name)?.annotations.readOnly;
      // A change makes every earlier read stale (a read after it reads new state), and may mend what failed.
      if (changes) {
        clearReads(inv, answered);
        failed.clear();
      }
      answered.add(keyOf(call.name, call.args));
    }
  }
  return { answered, failed };
}

/** After a change, reads may be made again; the changes themselves stay (the same add twice is still a repeat). */
function clearReads(inv: Invocation, keys: Set<string>): void {
  for (const key of [...keys]) if (changesNothing(inv, key)) keys.delete(key);
}

function changesNothing(inv: Invocation, key: string): boolean {
  const name = key.slice(0, key.indexOf('\u0000'));
  return Boolean(inv.tools.get(name)?.annotations.readOnly);
}

/** This run's events: the tail of the history written under its invocation id. */
function runEvents(history: readonly AgentEvent[], invocationId: string): AgentEvent[] {
  let start = history.length;
  while (start > 0 && history[start - 1]!.invocationId === invocationId) start--;
  return history.slice(start);
}

/** A call's identity: its name and its arguments with keys in order, so that {"a":1,"b":2} is {"b":2,"a":1}. */
function keyOf(name: string, args: unknown): string {
  return `${name}\u0000${JSON.stringify(sorted(args))}`;
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sorted((value as Record<string, unknown>)[key])]),
  );
}
