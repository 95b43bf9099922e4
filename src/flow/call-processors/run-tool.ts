/**
 * Runs one call: a built-in agent tool here, a page tool through the runner,
 * with its chunks as partial events. The call's timeout is the page's
 * (invokeTool, where the call runs and where ctx.signal must abort); here
 * only the run's abort reaches the call. An approved call carries the
 * arguments the person saw, and the page runs it only with exactly those.
 */
import { type AgentErrorCode, isAgentGone, messageOf } from '../../errors';
import type { ToolOutcome } from '../../tools/invoke-tool';
import { builtinResponse, isBuiltin } from '../agents';
import { emitPartial } from '../record';
import type { CallProcessor, CallResponse, Invocation, Turn, TurnCall } from '../types';
import { refusal } from './refusal';

/** The code of a call its own tool failed (here, and in tools/invoke-tool.ts): the repeat guard and the retry of values read it. */
export const TOOL_FAILED = 'tool-failed' satisfies AgentErrorCode;

const NOT_SHOWN =
  'Not run: it was approved without being shown with the arguments it would run with. Ask the user to approve it again.';

export const runTool: CallProcessor = async (inv, turn, call) => {
  if (call.response) return;
  // The page runs an approved call only with the arguments its person saw; a decision that carries none showed nothing.
  if (call.decision?.granted && call.decision.args === undefined) {
    call.response = refusal(turn, call, NOT_SHOWN, 'invalid-arguments');
    return;
  }
  if (isBuiltin(call.call.name)) {
    call.response = builtinResponse(inv, turn.agentName, call.call, performance.now());
    return;
  }
  call.response = responseOf(call, await runPageTool(inv, turn, call));
  call.ran = true;
};

async function runPageTool(inv: Invocation, turn: Turn, call: TurnCall): Promise<ToolOutcome> {
  const t0 = performance.now();
  const { id, name } = call.call;
  const approvedArgs = call.decision?.args;
  try {
    return await inv.runner.run(
      {
        callId: id,
        name,
        args: call.args,
        ...(approvedArgs !== undefined && { approvedArgs }),
        sessionId: inv.sessionId,
        invocationId: inv.invocationId,
        agentName: turn.agentName,
        state: { ...inv.state },
      },
      {
        signal: inv.signal,
        onChunk: (chunk) =>
          emitPartial(inv, {
            author: turn.agentName,
            content: { role: 'tool', parts: [{ functionResponse: { id, name, response: chunk } }] },
          }),
      },
    );
  } catch (error) {
    if (isAgentGone(error)) throw error;
    return {
      ok: false,
      ms: performance.now() - t0,
      error: { code: TOOL_FAILED, message: `${name} failed: ${messageOf(error)}` },
    };
  }
}

/** What the page's outcome means for the turn: the response the model reads, and what the event keeps beside it. */
function responseOf(call: TurnCall, outcome: ToolOutcome): CallResponse {
  const { id, name } = call.call;
  if (!outcome.ok) {
    const fatal = (outcome.error.details as { fatal?: boolean } | undefined)?.fatal ? outcome.error : undefined;
    return {
      response: { id, name, response: null, error: outcome.error.message, code: outcome.error.code },
      ms: outcome.ms,
      ...(fatal && { fatal }),
      ...(outcome.artifact !== undefined && { artifact: outcome.artifact }),
    };
  }
  const { result } = outcome;
  return {
    response: { id, name, response: result.content },
    ms: outcome.ms,
    artifact: result.artifact,
    stateDelta: result.stateDelta,
    final: call.declaration!.returnDirect || result.finalAnswer === true,
    longRunning: call.declaration!.longRunning,
    ...(outcome.notices && { notices: outcome.notices }),
  };
}
