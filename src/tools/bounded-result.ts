/**
 * A tool's result as a session may keep it. Its content (what the model
 * reads) and its state delta must be JSON within MAX_RESULT_CHARS each, or
 * the call fails with an error that blames the tool and says what to return
 * instead. Its artifact (for the page, kept in the log) is kept only if it
 * fits too; one that does not is dropped with a notice, and the result stands.
 */
import { AgentError } from '../errors';
import { describeJsonProblem, jsonProblem, MAX_RESULT_CHARS, type JsonProblem } from './plain-json';
import type { ToolResult } from './tool-result';

export interface ResultNotice {
  code: string;
  message: string;
}

export type BoundedResult =
  { ok: true; result: ToolResult; notices?: ResultNotice[] } | { ok: false; error: AgentError; artifact?: unknown };

export function boundResult(tool: string, result: ToolResult): BoundedResult {
  const artifactProblem = result.artifact === undefined ? undefined : jsonProblem(result.artifact, 'artifact');
  const kept = artifactProblem ? undefined : result.artifact;
  for (const part of ['content', 'stateDelta'] as const) {
    const problem = result[part] === undefined ? undefined : jsonProblem(result[part], part);
    if (problem)
      return {
        ok: false,
        error: resultError(`Tool "${tool}" returned`, problem),
        ...(kept !== undefined && { artifact: kept }),
      };
  }
  if (!artifactProblem) return { ok: true, result };
  const { artifact: _dropped, ...rest } = result;
  const why =
    artifactProblem.kind === 'too-large'
      ? `an artifact too large to keep (${describeJsonProblem(artifactProblem)})`
      : `an artifact JSON cannot write (${describeJsonProblem(artifactProblem)})`;
  return {
    ok: true,
    result: rest,
    notices: [{ code: 'artifact-dropped', message: `Tool "${tool}" returned ${why}. The result stands without it.` }],
  };
}

/** `subject` is who gave the value, e.g. `Tool "x" returned` or `agent.resolveTool was given`. */
export function resultError(subject: string, problem: JsonProblem): AgentError {
  const details = { problem: problem.kind, ...(problem.kind === 'not-json' && { path: problem.path }) };
  if (problem.kind === 'too-large')
    return new AgentError(
      'tool-result-too-large',
      `${subject} a result too large to use: ${describeJsonProblem(problem)}, and a result may take at most ${MAX_RESULT_CHARS.toLocaleString('en')}. Return less: a page of the rows, a summary, or ids the model can ask about one by one.`,
      { details },
    );
  return new AgentError(
    'tool-result-not-json',
    `${subject} something JSON cannot write, so no model could read it: ${describeJsonProblem(problem)}. A result is plain data: strings, numbers, booleans, null, arrays, plain objects, Dates.`,
    { details },
  );
}
