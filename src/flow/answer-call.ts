/**
 * Answers one function call of a model turn: a refusal decided earlier (an
 * unreadable call, arguments that do not parse, a person's no), a built-in
 * agent tool, or a page tool validated, passed through the before-tool
 * callback, run, and passed through the after-tool callback.
 */
import type { AgentErrorData } from '../errors';
import type { FunctionCall, FunctionResponse } from '../session/event';
import { validateWithJsonSchema } from '../tools/validate-args';
import { builtinAnswer, isBuiltin } from './agents';
import { rejectionMessage, type Decision } from './approval';
import { runPageTool } from './run-page-tool';
import { afterTool, beforeTool } from './tool-callbacks';
import type { Invocation } from './types';

export interface Answer {
  response: FunctionResponse;
  ms: number;
  artifact?: unknown;
  stateDelta?: Record<string, unknown>;
  transferTo?: string;
  escalate?: boolean;
  final?: boolean;
  longRunning?: boolean;
  /** The tool said going on makes no sense: the run ends after recording the answers. */
  fatal?: AgentErrorData;
  /** What the tool event should say besides the answer (e.g. an artifact that was dropped). */
  notices?: { code: string; message: string }[];
}

export interface CallVerdicts {
  /** Calls answered with a message instead of running (unreadable, unparsable, not allowed), by id. */
  refused: ReadonlyMap<string, string>;
  /** A person's decisions, by id. */
  decided: ReadonlyMap<string, Decision>;
}

export async function answerCall(
  inv: Invocation,
  agentName: string,
  call: FunctionCall,
  verdicts: CallVerdicts,
): Promise<Answer> {
  const t0 = performance.now();
  const fail = (error: string, code?: string): Answer => ({
    response: { id: call.id, name: call.name, response: null, error, ...(code && { code }) },
    ms: performance.now() - t0,
  });
  const refusal = verdicts.refused.get(call.id);
  if (refusal !== undefined) return fail(refusal);
  const decision = verdicts.decided.get(call.id);
  if (decision && !decision.granted) return fail(rejectionMessage(decision), 'tool-rejected');
  if (isBuiltin(call.name)) return builtinAnswer(inv, agentName, call, t0);

  const declaration = inv.tools.get(call.name);
  if (!declaration) return fail(unknownToolMessage(inv, call.name), 'unknown-tool');
  const valid = validateWithJsonSchema(declaration, call.args);
  if (!valid.ok) return fail(valid.error.message, valid.error.code);

  const before = await beforeTool(inv, call);
  if (before.kind === 'answered') {
    return { response: { id: call.id, name: call.name, response: before.result }, ms: performance.now() - t0 };
  }
  if (before.args !== call.args) {
    const revalidated = validateWithJsonSchema(declaration, before.args);
    if (!revalidated.ok) return fail(`beforeTool gave arguments that do not fit: ${revalidated.error.message}`);
  }
  const ran = { ...call, args: before.args };
  // An approved call runs only with the arguments the person saw (the page checks; see ToolCallRequest.approvedArgs).
  const outcome = await afterTool(inv, call, before.args, await runPageTool(inv, agentName, ran, decision?.args));
  if (!outcome.ok) {
    const fatal = (outcome.error.details as { fatal?: boolean } | undefined)?.fatal ? outcome.error : undefined;
    return {
      ...fail(outcome.error.message, outcome.error.code),
      ms: outcome.ms,
      fatal,
      ...(outcome.artifact !== undefined && { artifact: outcome.artifact }),
    };
  }
  const { result } = outcome;
  return {
    response: { id: call.id, name: call.name, response: result.content },
    ms: outcome.ms,
    artifact: result.artifact,
    stateDelta: result.stateDelta,
    final: declaration.returnDirect || result.finalAnswer === true,
    longRunning: declaration.longRunning,
    ...(outcome.notices && { notices: outcome.notices }),
  };
}

function unknownToolMessage(inv: Invocation, name: string): string {
  const names = [...inv.tools.keys()];
  return `There is no tool named "${name}". Call one of: ${names.length ? names.join(', ') : '(no tools)'}, or answer in plain text.`;
}
