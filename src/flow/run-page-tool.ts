/**
 * Runs one page tool through the runner and its chunks into partial events.
 * The call's timeout is the page's (invokeTool, where the call runs and where
 * ctx.signal must abort); here only the run's abort reaches the call.
 */
import { isAgentGone, messageOf } from '../errors';
import type { FunctionCall } from '../session/event';
import type { ToolOutcome } from '../tools/invoke-tool';
import { emitPartial } from './record';
import type { Invocation } from './types';

export async function runPageTool(
  inv: Invocation,
  agentName: string,
  call: FunctionCall,
  approvedArgs: unknown,
): Promise<ToolOutcome> {
  const t0 = performance.now();
  try {
    return await inv.runner.run(
      {
        callId: call.id,
        name: call.name,
        args: call.args,
        ...(approvedArgs !== undefined && { approvedArgs }),
        sessionId: inv.sessionId,
        invocationId: inv.invocationId,
        agentName,
        state: { ...inv.state },
      },
      {
        signal: inv.signal,
        onChunk: (chunk) =>
          emitPartial(inv, {
            author: agentName,
            content: { role: 'tool', parts: [{ functionResponse: { id: call.id, name: call.name, response: chunk } }] },
          }),
      },
    );
  } catch (error) {
    if (isAgentGone(error)) throw error;
    return {
      ok: false,
      ms: performance.now() - t0,
      error: { code: 'tool-failed', message: `${call.name} failed: ${messageOf(error)}` },
    };
  }
}
