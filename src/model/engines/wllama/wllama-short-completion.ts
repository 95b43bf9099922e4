/**
 * The engine's short questions, each one greedy completion of a few tokens after the prompt a step of the
 * same messages would read, so that what llama.cpp's cache keeps of it is that step's prompt: which of a
 * list of options (choose), and how likely a call is (callChance).
 */
import { AgentError } from '../../../errors';
import { callChanceOf, type TokenChance } from '../../call-chance';
import type { CallChance, Choice, ChoiceRequest, PromptRead } from '../../engine';
import { choiceGbnf, readChoice } from '../../gbnf/choice-gbnf';
import { addUsage, type CompletionChunk, type LlamaTurn, type Timings } from './wllama-completion';
import type { PromptWriter } from './wllama-prompt';
import { systemOf, type WllamaRequestPlan } from './wllama-request';
import { orGone, readOnWhenStopped } from './wllama-waits';

/** Tokens of the first position whose probabilities llama.cpp reports (callChance): enough to hold almost all the mass. */
const FIRST_TOKEN_PROBS = 20;

/** What a short question needs besides llama.cpp. */
export interface ShortQuestion extends LlamaTurn {
  onRead?: (progress: PromptRead) => void;
}

/**
 * A few tokens held to one of the request's options (choiceGbnf), greedily, after the prompt a step of
 * the same messages would read: what llama.cpp's cache keeps of it is that prompt up to the question.
 */
export async function chooseOption(
  request: ChoiceRequest,
  prompt: PromptWriter,
  countTokens: (text: string) => number,
  question: ShortQuestion,
): Promise<Omit<Choice, 'ms'>> {
  const text = prompt.write({ system: systemOf(request), tools: request.tools, messages: request.messages });
  const longest = Math.max(...request.options.map((option) => countTokens(option)));
  let answer = '';
  const timings = await shortCompletion(
    { prompt: text, n_predict: 2 * longest + 4, grammar: choiceGbnf(request.options), stop: prompt.stops },
    'choose',
    (chunk) => (answer += chunk.choices?.[0]?.text ?? ''),
    question,
  );
  question.onHeld(text + answer);
  const option = readChoice(answer, request.options);
  if (option === undefined)
    throw new AgentError(
      'model-failed',
      `${question.modelId} answered ${JSON.stringify(answer)}, none of ${request.options.join(', ')}, under a grammar that allows only those.`,
    );
  return { option, ...(timings && { usage: addUsage(undefined, timings) }) };
}

/**
 * The chance the step opens with a call, from llama.cpp's probabilities of its first token (n_probs) with no
 * grammar applied: the model's own inclination. Writes nothing; the step that follows reads the same prompt.
 */
export async function weighCall(plan: WllamaRequestPlan, question: ShortQuestion): Promise<Omit<CallChance, 'ms'>> {
  let first: TokenChance[] = [];
  const timings = await shortCompletion(
    { prompt: plan.prompt, n_predict: 1, n_probs: FIRST_TOKEN_PROBS },
    'weigh a call',
    (chunk) => (first = chunk.choices?.[0]?.logprobs?.content?.[0]?.top_logprobs ?? first),
    question,
  );
  question.onHeld(plan.prompt);
  const chance = plan.openers.length ? (callChanceOf(first, plan.openers) ?? 0.5) : 0;
  return { chance, ...(timings && { usage: addUsage(undefined, timings) }) };
}

/** One completion of a few tokens, greedy, its chunks handed to `onChunk`: llama.cpp's timings of it. */
async function shortCompletion(
  params: Record<string, unknown>,
  what: string,
  onChunk: (chunk: CompletionChunk) => void,
  question: ShortQuestion,
): Promise<Timings | undefined> {
  const { signal, gone } = question;
  const mark = question.log.mark;
  let timings: Timings | undefined;
  try {
    const completion = question.complete({
      ...params,
      temperature: 0,
      cache_prompt: true,
      stream: true,
      timings_per_token: true,
      return_progress: true,
      ...(signal && { abortSignal: signal }),
    });
    const chunks = await orGone(completion, gone);
    for await (const chunk of readOnWhenStopped(chunks, () => undefined, gone)) {
      if (chunk.timings) {
        timings = chunk.timings;
        question.onTimings(chunk.timings);
      }
      if (chunk.prompt_progress) {
        const { total, cache, processed } = chunk.prompt_progress;
        if (total > cache) question.onRead?.({ read: processed - cache, of: total - cache });
      } else onChunk(chunk);
    }
  } catch (error) {
    if (error instanceof AgentError && error.code === 'model-crashed') throw error;
    if (signal?.aborted || (error instanceof Error && error.name === 'AbortError'))
      throw new AgentError('aborted', `Aborted while the model read the prompt to ${what}.`);
    throw question.log.failure(error, mark, `${question.modelId} could not ${what}`);
  }
  return timings;
}
