/**
 * A llama.cpp completion as the engine's parts see it: a function from
 * llama.cpp's parameters to its streamed chunks (wllama's createCompletion,
 * which only wllama-engine.ts holds), the chunks' shape, and the usage a
 * step reports from llama.cpp's timings.
 */
import type { TokenChance } from '../../call-chance';
import type { Usage } from '../../usage';
import type { WllamaLog } from './wllama-log';

/** Starts one completion with llama.cpp's own parameters (wllama hands on whatever its types do not list). */
export type Complete = (params: Record<string, unknown>) => Promise<AsyncIterable<CompletionChunk>>;

/** What each request of the engine needs of llama.cpp, and where it tells the engine what llama.cpp did. */
export interface LlamaTurn {
  complete: Complete;
  /** llama.cpp's log: its failures are told there. */
  log: WllamaLog;
  modelId: string;
  signal?: AbortSignal;
  /** Rejects when llama.cpp's worker is gone. */
  gone?: Promise<never>;
  /** The text llama.cpp's cache holds now. */
  onHeld(text: string): void;
  onTimings(timings: Timings): void;
}

/** A chunk of llama.cpp's streamed completion, as wllama hands it on. */
export interface CompletionChunk {
  choices?: {
    text?: string;
    finish_reason?: string | null;
    /** With n_probs: each token's most likely alternatives (OpenAI's shape). */
    logprobs?: { content?: { top_logprobs?: TokenChance[] }[] } | null;
  }[];
  timings?: Timings;
  /** With return_progress, after each batch of the prompt: `processed` counts from the prompt's start, cache included. */
  prompt_progress?: { total: number; cache: number; processed: number };
}

/** llama.cpp's own account of a completion. */
export interface Timings {
  cache_n?: number;
  prompt_n?: number;
  prompt_ms?: number;
  predicted_n?: number;
  predicted_ms?: number;
}

/** A step's usage from llama.cpp's timings, summed over the completions it took. */
export function addUsage(before: Usage | undefined, timings: Timings | undefined): Usage | undefined {
  if (!timings) return before;
  const cached = timings.cache_n ?? 0;
  const prefilled = timings.prompt_n ?? 0;
  if (!before)
    return { promptTokens: cached + prefilled, completionTokens: timings.predicted_n ?? 0, cachedPromptTokens: cached };
  return { ...before, completionTokens: before.completionTokens + (timings.predicted_n ?? 0) };
}
