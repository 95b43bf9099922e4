/**
 * One model call: before-model callbacks may answer instead of the model,
 * the model streams (text arrives as partial events), after-model callbacks
 * may replace the answer.
 */
import { AgentError, messageOf, runAbortedError } from '../errors';
import type { FinishReason, ModelRequest, ModelResponse, ModelToolCall } from '../model/engine';
import type { Usage } from '../session/event';
import { raceAbort } from './abortable';
import { plain } from './callback-value';
import { emitPartial } from './record';
import { runCallback } from './run-callback';
import type { CallError, Invocation, StepResponse } from './types';

/**
 * `turn`: the model's turn so far, which this call goes on with (ModelEngine.continueTurn) instead of starting
 * one; the callbacks saw the step when it began, and see nothing of its continuation.
 */
export async function callModel(
  inv: Invocation,
  agentName: string,
  request: ModelRequest,
  turn?: string,
): Promise<StepResponse> {
  const startedAt = Date.now();
  const t0 = performance.now();
  const done = (response: Omit<StepResponse, 'startedAt' | 'ms'>): StepResponse => ({
    ...response,
    startedAt,
    ms: performance.now() - t0,
  });

  if (inv.hooks.has.beforeModel && turn === undefined) {
    const replaced = await runCallback(inv, () => inv.hooks.beforeModel(request, agentName), 'beforeModel');
    if (replaced !== undefined)
      return done({
        ...asResponse(replaced, 'beforeModel'),
        callErrors: [],
        finishReason: 'stop',
        answeredBy: 'beforeModel',
      });
  }

  let text = '';
  const toolCalls: ModelToolCall[] = [];
  const callErrors: CallError[] = [];
  let reasoning = '';
  let raw: string | undefined;
  const notices: { code: string; message: string }[] = [];
  let usage: Usage | undefined;
  let finishReason: FinishReason = 'stop';
  const deltas =
    turn === undefined || !inv.engine.continueTurn
      ? inv.engine.generate(request, inv.signal)
      : inv.engine.continueTurn(request, turn, inv.signal);
  const stream = deltas[Symbol.asyncIterator]();
  try {
    for (;;) {
      const next = await raceAbort(stream.next(), inv.signal);
      if (next.done) break;
      const delta = next.value;
      if (delta.type === 'text') {
        text += delta.text;
        emitPartial(inv, { author: agentName, content: { role: 'model', parts: [{ text: delta.text }] } });
      } else if (delta.type === 'reasoning') {
        reasoning += delta.text;
        emitPartial(inv, { author: agentName, content: { role: 'model', parts: [{ reasoning: delta.text }] } });
      } else if (delta.type === 'tool-call-start') {
        emitPartial(inv, { author: agentName, toolCallStart: { name: delta.name } });
      } else if (delta.type === 'prompt-read') {
        emitPartial(inv, { author: agentName, promptRead: { read: delta.read, of: delta.of } });
      } else if (delta.type === 'notice') notices.push({ code: delta.code, message: delta.message });
      else if (delta.type === 'tool-call') toolCalls.push(delta.call);
      else if (delta.type === 'tool-call-error')
        callErrors.push({ id: delta.id, name: delta.name, raw: delta.raw, message: delta.message });
      else {
        finishReason = delta.reason;
        usage = delta.usage;
        raw = delta.raw;
      }
    }
  } catch (error) {
    void stream.return?.();
    if (inv.signal.aborted) throw runAbortedError();
    throw error instanceof AgentError
      ? error
      : new AgentError('model-failed', `The model failed: ${messageOf(error)}`, { cause: error });
  }
  if (inv.signal.aborted || finishReason === 'abort') throw runAbortedError();

  let response: ModelResponse = { text, toolCalls };
  let answeredBy: StepResponse['answeredBy'];
  if (inv.hooks.has.afterModel && turn === undefined) {
    const replaced = await runCallback(inv, () => inv.hooks.afterModel(response, agentName), 'afterModel');
    if (replaced !== undefined) {
      response = asResponse(replaced, 'afterModel');
      answeredBy = 'afterModel';
    }
  }
  return done({
    ...response,
    callErrors: answeredBy ? [] : callErrors,
    ...(reasoning && { reasoning }),
    // A replaced answer is not what the model generated: it must not be replayed as its own words.
    ...(raw !== undefined && !answeredBy && { raw }),
    ...(notices.length && { notices }),
    usage,
    finishReason,
    answeredBy,
  });
}

/** A callback's answer as a model response; it goes into every later prompt, so it must be plain JSON data. */
function asResponse(value: unknown, name: string): ModelResponse {
  if (typeof value === 'string') return { text: value, toolCalls: [] };
  plain(value, name, 'a response');
  if (value && typeof value === 'object') {
    const candidate = value as Partial<ModelResponse>;
    const toolCalls = Array.isArray(candidate.toolCalls) ? candidate.toolCalls : [];
    if (typeof candidate.text === 'string' || toolCalls.length) return { text: candidate.text ?? '', toolCalls };
  }
  throw new AgentError(
    'callback-failed',
    `The ${name} callback returned ${messageOf(value)}; return undefined, a string, or { text, toolCalls }.`,
  );
}
