/**
 * One step's decoding: llama.cpp's completion streamed through the family's
 * reader into deltas, with the step's recovery rules when a completion fails
 * (invalid-utf8-rule.ts, strict-grammar-rule.ts): each goes on in a new
 * completion from the text so far, which llama.cpp's cache holds. A step
 * whose output falls into a loop (repeating-tail.ts) is stopped there, as
 * if at its token limit, and says so in a notice.
 */
import { AgentError } from '../../../errors';
import type { FinishReason, ModelDelta } from '../../engine';
import { OUTPUT_VOCABULARY } from '../../formats/output-vocabulary';
import { loopNotice, RepeatingTail } from '../../readers/repeating-tail';
import { ToolCallStream } from '../../readers/stream-tool-calls';
import type { Usage } from '../../usage';
import { goOnAfterInvalidUtf8, tokenLimit } from './invalid-utf8-rule';
import { goOnUnderStrictGrammar } from './strict-grammar-rule';
import { addUsage, type LlamaTurn, type Timings } from './wllama-completion';
import type { CompletionParams, WllamaRequestPlan } from './wllama-request';
import { orGone, readOnWhenStopped } from './wllama-waits';

/** What a step's decoding needs besides its plan and llama.cpp. */
export interface DecodeStep extends LlamaTurn {
  contextWindow: number;
  /** The page's model.completion: llama.cpp parameters of its own, under the step's. */
  completion?: Record<string, unknown>;
  /** Each step ends with its first call (a model that would not end its turn by itself). */
  oneCall: boolean;
  /** When the step began (performance.now()), for the time to the first token. */
  started: number;
  /** Milliseconds from `started` to a token llama.cpp wrote (called for each: the first one counts). */
  onToken(ms: number): void;
}

export function decodeStep(plan: WllamaRequestPlan, step: DecodeStep): AsyncGenerator<ModelDelta> {
  return new StepDecoding(plan, step).run();
}

/** One completion's count of what it wrote, read after it failed. */
interface Attempt {
  timings?: Timings;
  received: number;
}

class StepDecoding {
  private readonly stream: ToolCallStream;
  /** Ends the completion early: where the step's first call closes. */
  private readonly cut = new AbortController();
  private readonly firstCall: WllamaRequestPlan['firstCallEnd'];
  private readonly loop = new RepeatingTail();
  private raw = '';
  private finish: FinishReason = 'stop';
  /** Stopped in a loop: its calls run once each (ReadOptions.looped). */
  private looped = false;
  private usage?: Usage;
  /** Whether llama.cpp's hold was told after the last completion (settle). */
  private settled = false;

  constructor(
    private readonly plan: WllamaRequestPlan,
    private readonly step: DecodeStep,
  ) {
    this.stream = new ToolCallStream({
      vocabulary: OUTPUT_VOCABULARY,
      tools: plan.tools,
      allowed: plan.toolNames,
      example: plan.format.example,
    });
    // Without a grammar to stop it, a step that ends with its first call is cut where that call closes.
    this.firstCall = step.oneCall && !plan.params.grammar ? plan.firstCallEnd : undefined;
  }

  async *run(): AsyncGenerator<ModelDelta> {
    try {
      yield* this.attempts();
    } finally {
      // Closed before a completion settled (the run stopped between two deltas): llama.cpp holds at most the
      // prompt and the text so far. Said so, a read-ahead after it starts there; told nothing, it would start
      // where the step before ended, and its first piece would make llama.cpp drop what this step read.
      if (!this.settled) this.step.onHeld(this.plan.prompt + this.raw);
    }
  }

  private async *attempts(): AsyncGenerator<ModelDelta> {
    const { plan, step } = this;
    let params = plan.params;
    let strict = false;
    // A step that goes on in a new completion (after bytes that are not UTF-8) keeps to the step's token limit.
    const limit = tokenLimit(step.completion, plan.params.max_tokens, step.contextWindow);
    let generated = 0;
    let left: number | undefined;
    let replaced = false;
    for (;;) {
      const mark = step.log.mark;
      const attempt: Attempt = { received: 0 };
      this.settled = false;
      try {
        yield* this.completion(params, left, attempt);
        this.settle(attempt);
        break;
      } catch (error) {
        this.settle(attempt);
        if (error instanceof AgentError && error.code === 'model-crashed') throw error;
        if (this.cut.signal.aborted && !step.signal?.aborted) break;
        if (step.signal?.aborted || (error instanceof Error && error.name === 'AbortError')) {
          this.finish = 'abort';
          break;
        }
        const failure = step.log.decodeFailure(error, mark, step.modelId);
        const written = attempt.timings?.predicted_n ?? attempt.received;
        const replacement = goOnAfterInvalidUtf8(failure, { generated, written, limit, replacedBefore: replaced });
        if (replacement) {
          this.raw += replacement.text;
          for (const piece of this.stream.push(replacement.text)) yield piece;
          if (replacement.notice) yield replacement.notice;
          replaced = true;
          generated = replacement.generated;
          if ('left' in replacement) {
            left = replacement.left;
            continue;
          }
          this.finish = replacement.finish;
          break;
        }
        const stricter = goOnUnderStrictGrammar(failure, plan, this.raw, strict);
        if (!stricter) throw failure.error;
        // Go on from the text so far under a grammar that holds every token from here.
        strict = true;
        params = stricter.params;
        yield stricter.notice;
      }
    }
    yield* this.end();
  }

  /** One completion from the prompt and the text so far, its chunks read into deltas. */
  private async *completion(
    params: CompletionParams,
    left: number | undefined,
    attempt: Attempt,
  ): AsyncGenerator<ModelDelta> {
    const { plan, step, cut } = this;
    const abortSignal = step.signal ? AbortSignal.any([step.signal, cut.signal]) : cut.signal;
    const completion = step.complete({
      ...step.completion,
      prompt: plan.prompt + this.raw,
      ...params,
      stop: [...params.stop, ...stopsOf(step.completion)],
      stream: true,
      // A completion that ends early (cut by us, or by a piece llama.cpp could not hand over) never sees
      // llama.cpp's last chunk: its usage, and the tokens it wrote, come from the chunks before.
      timings_per_token: true,
      return_progress: true,
      ...(left !== undefined && { n_predict: left }),
      abortSignal,
    });
    const chunks = await orGone(completion, step.gone);
    for await (const chunk of readOnWhenStopped(chunks, () => cut.abort(), step.gone)) {
      // Read on after the cut, so that wllama's abort error reaches the catch below (a break would leave it unhandled).
      if (cut.signal.aborted) continue;
      if (chunk.timings) {
        attempt.timings = chunk.timings;
        step.onTimings(chunk.timings);
      }
      if (chunk.prompt_progress) {
        const { total, cache, processed } = chunk.prompt_progress;
        if (total > cache) yield { type: 'prompt-read', read: processed - cache, of: total - cache };
        continue;
      }
      const choice = chunk.choices?.[0];
      let text = choice?.text ?? '';
      attempt.received++;
      if (choice?.text) step.onToken(performance.now() - step.started);
      const end = this.firstCall?.(this.raw, text);
      if (end !== undefined) text = text.slice(0, end);
      this.raw += text;
      if (text) for (const piece of this.stream.push(text)) yield piece;
      if (end !== undefined) {
        cut.abort();
        continue;
      }
      if (this.loop.push(text)) {
        yield loopNotice(this.loop.piece!, this.raw.length);
        this.finish = 'length';
        this.looped = true;
        cut.abort();
        continue;
      }
      if (choice?.finish_reason === 'length') this.finish = 'length';
    }
  }

  /** What llama.cpp holds and the step's usage, after a completion ended or failed. */
  private settle(attempt: Attempt): void {
    this.settled = true;
    this.step.onHeld(this.plan.prompt + this.raw);
    this.usage = addUsage(this.usage, attempt.timings);
  }

  /** The reader's last deltas and the step's finish. */
  private *end(): Generator<ModelDelta> {
    const rest = this.stream.end(this.finish, this.looped);
    if (rest.reasoning) yield { type: 'reasoning', text: rest.reasoning };
    if (rest.text) yield { type: 'text', text: rest.text };
    for (const call of rest.calls) yield { type: 'tool-call', call };
    for (const error of rest.errors) yield { type: 'tool-call-error', ...error };
    const calls = rest.calls.length + rest.errors.length;
    // A loop whose calls were read ended a turn of calls; one of words was cut off, as at the token limit.
    const cut = this.finish === 'length' && !(this.looped && rest.calls.length);
    const reason = this.finish === 'abort' ? 'abort' : cut ? 'length' : calls ? 'tool-calls' : 'stop';
    yield { type: 'finish', reason, ...(this.usage && { usage: this.usage }), raw: this.raw };
  }
}

/** Stop strings the page added in model.completion (they add to the template's own). */
function stopsOf(completion: Record<string, unknown> | undefined): string[] {
  const stop = completion?.stop;
  return typeof stop === 'string' ? [stop] : Array.isArray(stop) ? stop.filter((item) => typeof item === 'string') : [];
}
