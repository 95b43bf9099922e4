/**
 * A run started by a long-running call's result (agent.resolveTool). That
 * the call waits is read from the session record, so it holds however long
 * ago the call was made; it is checked and the result recorded under the
 * session's lock, so a result given twice is stored once.
 */
import { AgentError } from '../errors';
import type { AgentEvent } from '../session/event';
import { answeredCallIds, functionCalls } from '../session/parts';
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
  const open = session.openCalls?.[callId];
  const pending = session.openCalls
    ? open?.waiting === 'long-running'
    : history.some((event) => event.longRunningToolIds?.includes(callId)) && !answeredCallIds(history).has(callId);
  const maker = history.find((e) => e.content?.role === 'model' && functionCalls(e).some((c) => c.id === callId));
  const name = open?.name ?? (maker && functionCalls(maker).find((call) => call.id === callId)?.name);
  if (!pending || !name) {
    throw new AgentError(
      'not-pending',
      `No long-running call "${callId}" is waiting for a result in session ${session.id} (it was answered already, or never made).`,
    );
  }
  // The result enters the session and the model's next prompt as a tool's would: by the same rule.
  const problem = jsonProblem(result, 'result');
  if (problem) throw resultError(`agent.resolveTool("${callId}") was given`, problem);
  const invocationId =
    open?.invocationId ?? history.find((event) => event.longRunningToolIds?.includes(callId))!.invocationId;
  const response: EventDraft = {
    author: open?.author ?? maker?.author ?? 'assistant',
    invocationId,
    content: { role: 'tool', parts: [{ functionResponse: { id: callId, name, response: result } }] },
  };
  return { kind: 'continue', before: [response], invocationId };
}
