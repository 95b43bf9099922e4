/**
 * As many calls as asked: after a request's first step called, while the
 * request holds values no call of the turn has taken ("milk, eggs and
 * bread": eggs and bread, once milk is added; "base 10 height 5, and base
 * 15 height 7": 15 and 7), the model's turn goes on with another call
 * (ModelEngine.continueTurn), held to a call from its first token. A call
 * that takes none of the values left (the same call again, one made up)
 * ends it and is not kept.
 *
 * Why in the turn: Qwen2.5-Coder 0.5B writes one call and ends its turn
 * where several are asked (BFCL parallel 3.3%), and its probability of going
 * on after the first call was 0.93 to 1.00 for the end on every such case;
 * asked for another call in a new step after the results, it repeated the
 * first one (6 of 6); made to go on in the same turn, it wrote the next
 * item's call (llama.cpp, BFCL's parallel cases: see docs/evals.md).
 */
import { callModel } from '../call-model';
import type { ModelRequest } from '../../model/engine';
import type { Invocation, StepResponse } from '../types';
import { itemsListed } from './items-listed';
import { runRequest } from './run-request';
import { argumentWords, toolWords, valueWords } from './value-words';

export async function withMoreCalls(
  inv: Invocation,
  agentName: string,
  request: ModelRequest,
  response: StepResponse,
): Promise<StepResponse> {
  if (!inv.decisions?.moreCalls || !inv.engine.continueTurn || response.answeredBy) return response;
  const said = requestOf(inv, request);
  // The step after a packed call goes on for the run's request once (one-item-each.ts); the steps after it do not.
  if (said !== undefined && request.messages.at(-1)?.role === 'tool') inv.run.oneItemEach!.retried = true;
  if (said === undefined || !response.toolCalls.length || response.raw === undefined) return response;
  if (response.finishReason === 'length' || response.callErrors.length) return response;
  const offered = new Set(request.allowedTools ?? request.tools.map((tool) => tool.name));
  const asked = valueWords(said, toolWords(request.tools.filter((tool) => offered.has(tool.name))));
  const taken = new Set<string>();
  const take = (args: unknown) => argumentWords(args).forEach((word) => taken.add(word));
  response.toolCalls.forEach((call) => take(call.args));
  // As many calls as the request lists items ("milk, eggs and bread": three), never more: a word left over
  // ("order by price, lowest first") is no item of its own.
  const most = Math.min(inv.limits.maxToolCallsPerStep, itemsListed(said));
  const next = { ...request, toolChoice: holdToCall(request), sampling: nextCallSampling(request, response) };
  let turn = response;
  while (turn.toolCalls.length < most && [...asked].some((word) => !taken.has(word))) {
    const more = await callModel(inv, agentName, next, turn.raw);
    const fresh = more.toolCalls.filter((call) =>
      [...argumentWords(call.args)].some((w) => asked.has(w) && !taken.has(w)),
    );
    // All or nothing: a continuation with a call that takes nothing new is not kept (its raw would replay it),
    // but the time and tokens it took stay the step's: the visitor waited for them.
    if (!fresh.length || fresh.length < more.toolCalls.length || more.callErrors.length || more.raw === undefined)
      return spent(turn, more);
    fresh.forEach((call) => take(call.args));
    turn = joined(turn, more);
  }
  return turn;
}

/**
 * A continuation writes one more call, about as long as the step's calls were: it gets half as many tokens
 * again and a few more (never more than the step had). Past that it writes no call worth keeping: the 0.5B,
 * held to fill_form again after a call that had taken the request's values, wrote on for 585 s (one thread)
 * until the step's own limit, where the whole request had taken 121 s.
 */
function nextCallSampling(request: ModelRequest, response: StepResponse): ModelRequest['sampling'] {
  const written = response.usage?.completionTokens;
  if (!written) return request.sampling;
  const perCall = Math.ceil(written / response.toolCalls.length);
  const most = Math.ceil(perCall * 1.5) + 16;
  return { ...request.sampling, maxTokens: Math.min(request.sampling?.maxTokens ?? Infinity, most) };
}

/** A turn with the time and tokens of a continuation that was not kept. */
function spent(turn: StepResponse, dropped: StepResponse): StepResponse {
  return {
    ...turn,
    ms: turn.ms + dropped.ms,
    usage: turn.usage && {
      ...turn.usage,
      completionTokens: turn.usage.completionTokens + (dropped.usage?.completionTokens ?? 0),
    },
  };
}

/**
 * The request a step's turn may go on for: the person's message the step answers, or, in the step after a call
 * that packed several items in one (one-item-each.ts), the run's request again.
 */
function requestOf(inv: Invocation, request: ModelRequest): string | undefined {
  const last = request.messages.at(-1);
  if (last?.role === 'user') return last.content;
  const refused = inv.run.oneItemEach;
  if (last?.role !== 'tool' || !refused || refused.retried) return undefined;
  return runRequest(inv);
}

/** The continuation's tool choice: the step's named tool stays named; otherwise any offered tool, but a call. */
function holdToCall(request: ModelRequest): ModelRequest['toolChoice'] {
  return typeof request.toolChoice === 'object' ? request.toolChoice : 'required';
}

/** One turn of two parts: the continuation's raw is the whole turn already (continueTurn). */
function joined(first: StepResponse, more: StepResponse): StepResponse {
  return {
    ...first,
    text: [first.text, more.text].filter(Boolean).join(' '),
    toolCalls: [...first.toolCalls, ...more.toolCalls],
    raw: more.raw,
    ...((first.notices || more.notices) && { notices: [...(first.notices ?? []), ...(more.notices ?? [])] }),
    usage: first.usage &&
      more.usage && {
        ...first.usage,
        completionTokens: first.usage.completionTokens + more.usage.completionTokens,
      },
    finishReason: more.finishReason,
    ms: first.ms + more.ms,
  };
}
