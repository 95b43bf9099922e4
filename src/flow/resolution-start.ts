/**
 * A run started by a long-running call's result (agent.resolveTool). That
 * the call waits is read from the session record, so it holds however long
 * ago the call was made; it is checked and the result recorded under the
 * session's lock, so a result given twice is stored once.
 */
import { AgentError } from '../errors';
import { longRunningCall } from '../session/call-ledger';
import type { AgentEvent } from '../session/event';
import { openCallsOf } from '../session/open-calls';
import type { Session } from '../session/store';
import { resultError } from '../tools/bounded-result';
import { jsonProblem } from '../tools/plain-json';
import type { EventDraft, RunStart } from './types';

/** A long-running call's result. Pending is read from the session record, so it holds however long ago the call was made. */
export function resolutionStart(
  session: Session,
  history: readonly AgentEvent[],
  callId: string,
  result: unknown,
): RunStart {
  // A session stored before the record kept open calls: its recent log tells.
  const call = longRunningCall(session.openCalls ?? openCallsOf(history), callId);
  if (!call?.name) {
    throw new AgentError(
      'not-pending',
      `No long-running call "${callId}" is waiting for a result in session ${session.id} (it was answered already, or never made).`,
    );
  }
  // The result enters the session and the model's next prompt as a tool's would: by the same rule.
  const problem = jsonProblem(result, 'result');
  if (problem) throw resultError(`agent.resolveTool("${callId}") was given`, problem);
  const { invocationId, author, name } = call;
  const response: EventDraft = {
    author,
    invocationId,
    content: { role: 'tool', parts: [{ functionResponse: { id: callId, name, response: result } }] },
  };
  return { kind: 'continue', before: [response], invocationId };
}
