/**
 * An event as an export writes it. What a session keeps from outside (tool
 * results, artifacts, state deltas, the arguments a person was shown) must be
 * JSON within the result cap; an earlier version could store a value that is
 * not (a BigInt, a sparse array of length 2**32-1), on which JSON.stringify
 * throws. Such a value is written as null, and the event says what was
 * dropped, so one bad value never costs the whole export.
 */
import type { AgentEvent, EventFields, Part } from './event';
import { describeJsonProblem, jsonProblem } from '../tools/plain-json';

export function writableEvent(event: AgentEvent): AgentEvent {
  const dropped: string[] = [];
  const keep = <T>(value: T, where: string): T | null => {
    const problem = jsonProblem(value, where);
    if (!problem) return value;
    dropped.push(
      problem.kind === 'too-large' ? `${where} is ${describeJsonProblem(problem)}` : describeJsonProblem(problem),
    );
    return null;
  };
  let out: EventFields = event;
  const parts = event.content?.parts.map((part): Part => {
    if (!('functionResponse' in part)) return part;
    const { id, response } = part.functionResponse;
    const kept = keep(response, `the result of call "${id}"`);
    return kept === response ? part : { functionResponse: { ...part.functionResponse, response: kept } };
  });
  if (parts && parts.some((part, i) => part !== event.content!.parts[i]))
    out = { ...out, content: { ...event.content!, parts } };
  if (event.artifacts) {
    const artifacts = Object.fromEntries(
      Object.entries(event.artifacts).map(([id, artifact]) => [id, keep(artifact, `the artifact of call "${id}"`)]),
    );
    out = { ...out, artifacts };
  }
  const delta = event.actions?.stateDelta;
  if (delta) {
    const stateDelta = Object.fromEntries(
      Object.entries(delta).map(([key, value]) => [key, keep(value, `state "${key}"`)]),
    );
    out = { ...out, actions: { ...out.actions, stateDelta } };
  }
  const asked = event.actions?.requestApproval;
  if (asked) {
    const requestApproval = asked.map((call) => ({
      ...call,
      args: keep(call.args, `the arguments shown for call "${call.callId}"`),
    }));
    out = { ...out, actions: { ...out.actions, requestApproval } };
  }
  if (dropped.length === 0) return event;
  const notices = dropped.map((why) => ({
    code: 'result-dropped',
    message: `Not exported, as JSON cannot write it: ${why}. It was written as null.`,
  }));
  return { ...out, notices: [...(event.notices ?? []), ...notices] } as AgentEvent;
}
