/**
 * A tool that finished after its call was stopped (the run was aborted, its
 * timeout passed): what it returned is kept in the log as late, beside the
 * answer the call already got, and never used (history-to-messages.ts, the
 * open calls and the log's rules skip late responses).
 */
import type { ToolOutcome } from '../tools/invoke-tool';
import type { FunctionResponse } from '../session/event';
import { record, standalone } from './record';
import type { RecordTarget, ToolCallRequest } from './types';

export async function recordLate(
  base: Pick<RecordTarget, 'sessionId' | 'store' | 'emit'>,
  request: ToolCallRequest,
  outcome: ToolOutcome,
): Promise<void> {
  const response: FunctionResponse = outcome.ok
    ? { id: request.callId, name: request.name, response: outcome.result.content }
    : { id: request.callId, name: request.name, response: null, error: outcome.error.message };
  await record(standalone(base, request.invocationId), {
    author: request.agentName,
    late: true,
    content: { role: 'tool', parts: [{ functionResponse: response }] },
    toolTimings: { [request.callId]: outcome.ms },
  });
}
