/**
 * The part of a step's prompt that does not depend on the visitor's next
 * words, as llama.cpp reads it ahead (agent.warmup): the prompt of a request
 * whose last message is the user's, written by the engine's own prompt writer
 * (the model's chat template, or our markup with its worked example), cut
 * where that message's text begins. So the text read ahead is the start of
 * the step's prompt, character for character, and llama.cpp's prefix cache
 * keeps it for that step.
 *
 * It is read in pieces, each a completion of its own that extends the last
 * (llama.cpp reads only the new part of each), because llama.cpp reads a
 * prompt in batches of up to 2048 tokens that nothing interrupts: one piece
 * is what an abort or a request waits for at most.
 */
import { AgentError } from '../../../errors';
import type { ModelRequest, PromptRead, WarmupResult } from '../../engine';
import type { LlamaTurn, Timings } from './wllama-completion';
import { systemOf } from './wllama-request';
import type { PromptWriter } from './wllama-prompt';
import { orGone, readOnWhenStopped } from './wllama-waits';

/** The answer to a request whose prompt has no part to read ahead. */
export const NOT_READ_AHEAD = {
  status: 'unsupported',
  promptTokens: 0,
  prefilledTokens: 0,
  cachedTokens: 0,
  reason: "The request does not end with a user's message, or the model's prompt does not show where it begins.",
} as const satisfies Omit<WarmupResult, 'ms'>;

/** Stands for the user's words while the prompt is written: plain letters, which no escaping or template changes. */
const MARK = 'inpagereadaheadmark';

/** The prompt before the text of the request's last message (the user's), or undefined when it has none. */
export function readAheadText(request: ModelRequest, writer: PromptWriter): string | undefined {
  const last = request.messages.at(-1);
  if (last?.role !== 'user') return undefined;
  const prompt = writer.write({
    system: systemOf(request),
    tools: request.tools,
    messages: [...request.messages.slice(0, -1), { role: 'user', content: MARK }],
  });
  const at = prompt.lastIndexOf(MARK);
  return at > 0 ? prompt.slice(0, at) : undefined;
}

/**
 * Where the next piece of `text` ends, read from `from` (llama.cpp holds what is before): about `size`
 * characters on, cut after a line break that a visible character follows. There the tokenizers split
 * anyway (a line break is a token of its own before a word, and special tokens hold none), so each
 * piece's tokens are the start of the next piece's, and nothing is read twice. The text's own end
 * when no such break is that far.
 */
export function nextPieceEnd(text: string, from: number, size: number): number {
  for (let at = text.indexOf('\n', from + Math.max(0, size - 1)); at !== -1; at = text.indexOf('\n', at + 1)) {
    const end = at + 1;
    if (end >= text.length) break;
    if (!/\s/.test(text[end]!)) return end;
  }
  return text.length;
}

/**
 * A prompt read ahead goes in pieces because llama.cpp reads a piece without a pause: a piece is what an abort
 * waits for at most. Each piece after the first is sized to take about PIECE_MS at the speed of the one before
 * (a piece costs one more completion request besides); the first, and any piece, is at least
 * FIRST_PIECE_TOKENS (estimated). Qwen2.5-Coder 0.5B reads 1.3–3.9 tokens/s on one thread of the 2-core test
 * machine under load, so 64 tokens take 20–50 s there; in pieces it read 178 tokens in 136 s and 80 s, and in one
 * completion 177 tokens in 121 s and 102 s (interleaved, load average 7): no cost beyond the machine's noise.
 */
const FIRST_PIECE_TOKENS = 64;
const PIECE_MS = 1000;

/** What reading ahead needs besides llama.cpp. */
export interface ReadAheadStep extends LlamaTurn {
  /** The text llama.cpp's cache holds already. */
  held: string;
  countTokens(text: string): number;
  onRead?: (progress: PromptRead) => void;
}

/**
 * Reads `text` (readAheadText) in pieces past what llama.cpp's cache holds already, each a completion that
 * writes nothing (n_predict 0). The counts are llama.cpp's own (timings.cache_n, prompt_n).
 */
export async function readInPieces(
  text: string,
  step: ReadAheadStep,
): Promise<Pick<WarmupResult, 'promptTokens' | 'prefilledTokens' | 'cachedTokens'>> {
  const whole = step.countTokens(text);
  const charsPerToken = text.length / Math.max(1, whole);
  let pieceTokens = FIRST_PIECE_TOKENS;
  let cachedTokens: number | undefined;
  let prefilledTokens = 0;
  let promptTokens = 0;
  const held = commonLength(step.held, text);
  // The estimate of the text read so far, a piece at a time: each piece is estimated once.
  let estimatedRead = step.countTokens(text.slice(0, held));
  step.onRead?.({ read: 0, of: Math.max(0, whole - estimatedRead) });
  for (let end = held; end < text.length || cachedTokens === undefined;) {
    const start = end;
    end = nextPieceEnd(text, end, Math.round(pieceTokens * charsPerToken));
    estimatedRead += step.countTokens(text.slice(start, end));
    const timings = await readPrompt(text.slice(0, end), step);
    cachedTokens ??= timings.cache_n ?? 0;
    prefilledTokens += timings.prompt_n ?? 0;
    promptTokens = (timings.cache_n ?? 0) + (timings.prompt_n ?? 0);
    // What is left, estimated at the ratio llama.cpp's count of the text read so far bears to the estimate's.
    const left =
      end < text.length
        ? Math.round((Math.max(0, whole - estimatedRead) * promptTokens) / Math.max(1, estimatedRead))
        : 0;
    step.onRead?.({ read: prefilledTokens, of: prefilledTokens + left });
    // The next piece takes about as long as PIECE_MS at the speed this one was read.
    if (timings.prompt_n && timings.prompt_ms)
      pieceTokens = Math.max(FIRST_PIECE_TOKENS, (timings.prompt_n / timings.prompt_ms) * PIECE_MS);
  }
  return { promptTokens, prefilledTokens, cachedTokens: cachedTokens ?? 0 };
}

/** One completion that reads `prompt` and writes nothing: llama.cpp's timings of it. */
async function readPrompt(prompt: string, step: ReadAheadStep): Promise<Timings> {
  const { signal, gone } = step;
  const mark = step.log.mark;
  let timings: Timings = {};
  try {
    const completion = step.complete({
      prompt,
      n_predict: 0,
      temperature: 0,
      cache_prompt: true,
      stream: true,
      timings_per_token: true,
      ...(signal && { abortSignal: signal }),
    });
    const chunks = await orGone(completion, gone);
    for await (const chunk of readOnWhenStopped(chunks, () => undefined, gone))
      if (chunk.timings) {
        timings = chunk.timings;
        step.onTimings(chunk.timings);
      }
  } catch (error) {
    if (error instanceof AgentError && error.code === 'model-crashed') throw error;
    if (signal?.aborted || (error instanceof Error && error.name === 'AbortError')) throw readAheadAborted();
    throw step.log.failure(error, mark, `Reading ${step.modelId}'s prompt ahead failed`);
  } finally {
    // What llama.cpp keeps of it: the prompt as far as it read (all of it, unless aborted).
    step.onHeld(prompt);
  }
  return timings;
}

export function readAheadAborted(): AgentError {
  return new AgentError('aborted', 'Reading the prompt ahead was aborted.');
}

/** How many characters two texts share from their start. */
function commonLength(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}
