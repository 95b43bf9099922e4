/**
 * The loop, after ADK-Go's Flow: step after step until an answer with no
 * calls, a return-direct tool, a pause, maxSteps, abort or an error. Every
 * ending is an event with its reason.
 */
import { AgentError, messageOf } from '../errors';
import { newId, type EndReason, type FunctionCall, type Part } from '../session/event';
import { currentAgent } from './agents';
import { callModel } from './call-model';
import { handleFunctionCalls, type CallsOutcome } from './handle-function-calls';
import { record, type EventDraft } from './record';
import { buildRequest } from './request-processors';
import { processResponse } from './response-processors';
import type { Invocation } from './types';

export type InvocationStart =
  /** A new user message; `before` answers what the session still had open (e.g. undecided approvals). */
  | { kind: 'user'; text: string; before?: EventDraft[] }
  /** Continue a turn whose calls waited for approval, once `before` (the last decision) is recorded. */
  | { kind: 'calls'; agentName: string; calls: FunctionCall[]; before?: EventDraft[] }
  /** Continue the conversation once `before` (e.g. a long-running call's answer) is recorded. */
  | { kind: 'continue'; before?: EventDraft[] };

export async function runInvocation(inv: Invocation, start: InvocationStart): Promise<EndReason> {
  try {
    for (const draft of start.before ?? []) await record(inv, draft);
    if (start.kind === 'user') {
      await record(inv, { author: 'user', content: { role: 'user', parts: [{ text: start.text }] } });
    }
    if (start.kind === 'calls') {
      const outcome = await handleFunctionCalls(inv, start.agentName, start.calls);
      if (outcome.kind === 'end') return outcome.reason;
    }
    for (let step = 0; step < inv.limits.maxSteps; step++) {
      const outcome = await runOneStep(inv);
      if (outcome.kind === 'end') return outcome.reason;
    }
    const message = `The run stopped after ${inv.limits.maxSteps} model steps without a final answer (maxSteps). Raise createAgent({ maxSteps }) or simplify the request.`;
    return await end(inv, 'max-steps', new AgentError('max-steps', message));
  } catch (error) {
    if (error instanceof AgentError && error.code === 'worker-crashed') throw error;
    if (inv.signal.aborted) return end(inv, 'aborted', new AgentError('aborted', 'The run was aborted.'));
    return end(inv, 'error', error);
  }
}

async function runOneStep(inv: Invocation): Promise<CallsOutcome> {
  if (inv.signal.aborted) throw new AgentError('aborted', 'The run was aborted.');
  const agentName = currentAgent(inv.history, inv.agents, inv.rootAgent);
  const agent = inv.agents.get(agentName)!;
  const { request, trimmed } = await buildRequest(inv, agent, inv.requestProcessors);
  const response = await callModel(inv, agentName, request);

  const { calls, unreadable } = processResponse(inv, request, response, inv.responseProcessors);

  const parts: Part[] = [];
  if (response.reasoning) parts.push({ reasoning: response.reasoning });
  if (response.text) parts.push({ text: response.text });
  for (const call of calls) parts.push({ functionCall: call });
  const answer = calls.length === 0;
  await record(inv, {
    author: agentName,
    content: { role: 'model', parts },
    ...(response.raw !== undefined && { raw: response.raw }),
    ...(response.notices && { notices: response.notices }),
    usage: response.usage,
    timing: { startedAt: response.startedAt, ms: response.ms },
    offeredTools: request.tools.map((tool) => tool.name),
    contextTrimmed: trimmed || undefined,
    endReason: answer ? 'answer' : undefined,
  });
  if (answer) return { kind: 'end', reason: 'answer' };
  return handleFunctionCalls(inv, agentName, calls, unreadable);
}

/** Records the ending event; if even that cannot be stored, the error still reaches the stream. */
async function end(inv: Invocation, reason: EndReason, error: unknown): Promise<EndReason> {
  const agentError =
    error instanceof AgentError ? error : new AgentError('model-failed', messageOf(error), { cause: error });
  const draft = {
    author: currentAgent(inv.history, inv.agents, inv.rootAgent),
    error: agentError.toJSON(),
    endReason: reason,
  };
  try {
    await record(inv, draft);
  } catch (storeError) {
    inv.emit({
      ...draft,
      id: newId('ev'),
      seq: 0,
      sessionId: inv.sessionId,
      invocationId: inv.invocationId,
      timestamp: Date.now(),
      error: storeError instanceof AgentError ? storeError.toJSON() : agentError.toJSON(),
    });
  }
  return reason;
}
