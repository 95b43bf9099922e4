/**
 * The loop, after ADK-Go's Flow: step after step until an answer with no
 * calls, a return-direct tool, a pause, maxSteps, abort or an error. Every
 * ending is an event with its reason.
 */
import { AgentError, isAgentGone, messageOf, runAbortedError } from '../errors';
import { newId, type EndReason, type Part } from '../session/event';
import { isStorageFailure } from '../session/storage-failure';
import { currentAgent } from './agents';
import { callModel } from './call-model';
import { holdToClaims } from './decisions/hold-to-claims';
import { answerFromReadings } from './decisions/what-was-read';
import { withMoreCalls } from './decisions/more-calls';
import { handleFunctionCalls } from './handle-function-calls';
import { record, recordAll } from './record';
import { buildRequest } from './request-processors/build-request';
import { processResponse } from './response-processors/process-response';
import { learnFromOverflow, learnTokenScale } from './token-scale';
import type { ToolChoice } from '../model/engine';
import type { Usage } from '../model/usage';
import type { CallsOutcome, Invocation, RunStart, StepResponse } from './types';

export async function runInvocation(inv: Invocation, start: RunStart): Promise<EndReason | undefined> {
  if (start.kind === 'nothing') return undefined;
  try {
    await recordAll(inv, start.before ?? []);
    if (start.kind === 'record') return start.before.at(-1)?.endReason;
    if (start.kind === 'user') {
      await record(inv, {
        id: start.messageId,
        author: 'user',
        content: { role: 'user', parts: [{ text: start.text }] },
      });
    }
    if (start.kind === 'calls') {
      const outcome = await handleFunctionCalls(inv, start.agentName, start.calls, { decided: start.decided });
      if (outcome.kind === 'end') return outcome.reason;
    }
    for (let step = 0; step < inv.limits.maxSteps; step++) {
      const outcome = await runOneStep(inv);
      if (outcome.kind === 'end') return outcome.reason;
    }
    const message = `The run stopped after ${inv.limits.maxSteps} model steps without a final answer (maxSteps). Raise createAgent({ maxSteps }) or simplify the request.`;
    return await end(inv, 'max-steps', new AgentError('max-steps', message));
  } catch (error) {
    if (isAgentGone(error)) throw error;
    if (inv.signal.aborted) return end(inv, 'aborted', runAbortedError());
    return end(inv, 'error', error);
  }
}

async function runOneStep(inv: Invocation): Promise<CallsOutcome> {
  if (inv.signal.aborted) throw runAbortedError();
  const agentName = currentAgent(inv.history, inv.agents, inv.rootAgent);
  const agent = inv.agents.get(agentName)!;
  let built = await buildRequest(inv, agent, inv.requestProcessors);
  let response: StepResponse;
  try {
    response = await callModel(inv, agentName, built.request);
  } catch (error) {
    // The model found the prompt longer than the window guard counted: fitted again with its count, once.
    const measured = learnFromOverflow(inv.engine, error, built.estimatedTokens);
    if (measured === undefined) throw error;
    built = await buildRequest(inv, agent, inv.requestProcessors);
    response = await callModel(inv, agentName, built.request);
    const recounted = {
      code: 'context-recounted',
      message: `The model counted ${measured} tokens in this step's prompt, more than its ${inv.engine.info.contextWindow}-token window holds: older turns were left out by its count, and the step was asked again.`,
    };
    response = { ...response, notices: [...(response.notices ?? []), recounted] };
  }
  const { request, trimmed, estimatedTokens } = built;
  response = await withMoreCalls(inv, agentName, request, response);
  // An engine's estimate of what it read (the scripted engine's) is no measure of the guard's estimate.
  if (estimatedTokens !== undefined && !response.answeredBy && !response.usage?.estimated)
    learnTokenScale(inv.engine, estimatedTokens, response.usage?.promptTokens);

  const { calls, refused } = processResponse(inv, request, response, inv.responseProcessors);

  const answer = calls.length === 0;
  const claims = answer ? holdToClaims(inv, request, response) : undefined;
  // Nothing of a reply that claimed in vain is recorded: the step is decided again, held to a call.
  if (claims?.kind === 'redo') return { kind: 'continue' };
  if (answer) answerFromReadings(inv, request, response);
  const parts: Part[] = [];
  if (response.reasoning) parts.push({ reasoning: response.reasoning });
  if (response.text) parts.push({ text: response.text });
  for (const call of calls) parts.push({ functionCall: call });
  // A step the decision layer held to a call owes none: its engine may have had no grammar to hold it.
  const missing = answer ? missingAnswer(built.decision ? undefined : request.toolChoice, response.text) : undefined;
  await record(inv, {
    author: agentName,
    content: { role: 'model', parts },
    ...(response.raw !== undefined && { raw: response.raw }),
    ...(response.notices && { notices: response.notices }),
    usage: withDecisionRead(response.usage, built.decisionUsage),
    timing: { startedAt: response.startedAt, ms: response.ms },
    // What the step allowed; the prompt may describe more (the run's tools).
    offeredTools: request.allowedTools ?? request.tools.map((tool) => tool.name),
    contextTrimmed: trimmed || undefined,
    ...(built.decision && { decision: built.decision }),
    ...(claims?.kind === 'replaced' && { unperformedClaims: claims.claims }),
    endReason: answer && !missing ? 'answer' : undefined,
  });
  if (!answer) return handleFunctionCalls(inv, agentName, calls, { refused });
  return { kind: 'end', reason: missing ? await end(inv, 'error', missing) : 'answer' };
}

/**
 * A step's usage with what its decision read first (the same prompt, callChance): the step then finds it
 * all in the cache, but the person waited for it, so the cached count is the one before the decision.
 */
function withDecisionRead(usage: Usage | undefined, decision: Usage | undefined): Usage | undefined {
  if (usage?.cachedPromptTokens === undefined || decision?.cachedPromptTokens === undefined) return usage;
  return { ...usage, cachedPromptTokens: Math.min(usage.cachedPromptTokens, decision.cachedPromptTokens) };
}

/**
 * What a step that called nothing owes the page: a call when the tool choice asks for one, and words
 * otherwise. A run never ends on an empty answer without saying why.
 */
function missingAnswer(choice: ToolChoice | undefined, text: string): AgentError | undefined {
  if (choice === 'required' || typeof choice === 'object') {
    const asked = choice === 'required' ? "toolChoice 'required'" : `toolChoice { name: '${choice.name}' }`;
    return new AgentError(
      'model-failed',
      `The step had to call a tool (${asked}), and the model called none${text.trim() ? `; it wrote: ${JSON.stringify(text.slice(0, 200))}` : ' and wrote nothing'}. Ask again, or use a model that follows tool instructions better.`,
    );
  }
  if (!text.trim())
    return new AgentError(
      'model-failed',
      'The model ended its turn without a word or a call. Ask again, or rephrase the request.',
    );
  return undefined;
}

/**
 * Records the ending event. If even that cannot be stored, the ending still
 * reaches the stream, with the error that says what was lost: a storage
 * error carries the events it could not store in its details.
 */
async function end(inv: Invocation, reason: EndReason, error: unknown): Promise<EndReason> {
  const agentError =
    error instanceof AgentError ? error : new AgentError('model-failed', messageOf(error), { cause: error });
  const draft = {
    author: currentAgent(inv.history, inv.agents, inv.rootAgent),
    error: agentError.toJSON(),
    endReason: reason,
  };
  try {
    await record(inv, { ...draft, error: { code: agentError.code, message: agentError.message } });
  } catch (storeError) {
    const shown = isStorageFailure(agentError) || !(storeError instanceof AgentError) ? agentError : storeError;
    inv.emit({
      ...draft,
      type: 'end',
      id: newId('ev'),
      seq: 0,
      sessionId: inv.sessionId,
      invocationId: inv.invocationId,
      timestamp: Date.now(),
      error: shown.toJSON(),
    });
  }
  return reason;
}
