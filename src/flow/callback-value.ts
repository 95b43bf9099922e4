/**
 * A callback's value enters the session and every later prompt, so it must
 * be plain JSON data within the cap a tool's result keeps; one that is not is
 * refused where it enters, by the rule tool results keep.
 */
import { AgentError } from '../errors';
import { describeJsonProblem, jsonProblem, MAX_RESULT_CHARS } from '../tools/plain-json';

/** `value` as given, or a callback-failed error naming the callback and what to return instead. */
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
