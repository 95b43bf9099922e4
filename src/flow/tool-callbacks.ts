/**
 * The before- and after-tool callbacks of one call. Their values enter the
 * session and the model's next prompt, so they must be plain JSON data.
 */
import { AgentError } from '../errors';
import type { FunctionCall } from '../session/event';
import type { ToolOutcome } from '../tools/invoke-tool';
import { describeJsonProblem, jsonProblem, MAX_RESULT_CHARS } from '../tools/plain-json';
import { runCallback } from './run-callback';
import type { Invocation } from './types';

export type BeforeTool = { kind: 'run'; args: unknown } | { kind: 'answered'; result: unknown };

/** beforeTool may change the arguments ({ args }) or answer without running the tool ({ result }). */
export async function beforeTool(inv: Invocation, call: FunctionCall): Promise<BeforeTool> {
  if (!inv.hooks.has.beforeTool) return { kind: 'run', args: call.args };
  const value = (await runCallback(
    inv,
    () => inv.hooks.beforeTool({ name: call.name, args: call.args, callId: call.id }),
    'beforeTool',
  )) as { args?: unknown; result?: unknown } | undefined;
  if (value && typeof value === 'object' && 'result' in value) {
    return { kind: 'answered', result: plain(value.result, 'beforeTool', 'result') };
  }
  if (value && typeof value === 'object' && 'args' in value) {
    return { kind: 'run', args: plain(value.args, 'beforeTool', 'args') };
  }
  return { kind: 'run', args: call.args };
}

/** afterTool may replace the result by returning a value. */
export async function afterTool(
  inv: Invocation,
  call: FunctionCall,
  args: unknown,
  outcome: ToolOutcome,
): Promise<ToolOutcome> {
  if (!inv.hooks.has.afterTool) return outcome;
  const replaced = await runCallback(
    inv,
    () =>
      inv.hooks.afterTool({
        name: call.name,
        args,
        callId: call.id,
        result: outcome.ok ? outcome.result.content : undefined,
        error: outcome.ok ? undefined : outcome.error.message,
      }),
    'afterTool',
  );
  if (replaced === undefined) return outcome;
  return { ok: true, result: { content: plain(replaced, 'afterTool', 'its value') }, ms: outcome.ms };
}

/** A callback's value that would poison every later prompt is refused where it enters, by the rule tool results keep. */
export function plain<T>(value: T, callback: string, what: string): T {
  const problem = jsonProblem(value);
  if (problem) {
    throw new AgentError(
      'callback-failed',
      problem.kind === 'too-large'
        ? `The ${callback} callback returned ${what} that is too large: ${describeJsonProblem(problem)}, and a result may take at most ${MAX_RESULT_CHARS.toLocaleString('en')}. Return less.`
        : `The ${callback} callback returned ${what} that is not plain JSON data: ${describeJsonProblem(problem)}. Return strings, numbers, booleans, null, arrays and plain objects without cycles.`,
    );
  }
  return value;
}
