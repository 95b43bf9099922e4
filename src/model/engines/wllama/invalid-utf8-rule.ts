/**
 * A model's bytes never fail a step. llama.cpp hands text to JavaScript as JSON, and wllama's glue writes
 * each result with nlohmann's dump() in its strict mode (action_get_result in its cpp/wllama-context.h),
 * where llama.cpp's own server writes with error_handler_t::replace. llama.cpp holds back only a
 * character cut at the end of the text (validate_utf8), so a piece with a lone continuation byte, a
 * surrogate, an overlong form or a byte over F4 makes dump() throw, and the piece is lost (its result
 * was already taken from llama.cpp's queue). A grammar does not prevent it: under the step's grammar
 * such bytes still came through (a negated class, as in a JSON string, takes code points that are not
 * characters). So one U+FFFD stands for the lost piece, and decoding goes on after it in a new
 * completion (llama.cpp's cache holds the prompt and the text before it), within the step's token limit.
 */
import type { ModelDelta } from '../../engine';
import type { Failure } from './wllama-log';

/** U+FFFD, the replacement character: what a piece of output that is not UTF-8 becomes. */
export const REPLACEMENT = '\ufffd';

/** Where the step stood when llama.cpp could not hand a piece over. */
export interface LostPiece {
  /** Tokens the step's earlier completions wrote. */
  generated: number;
  /** Tokens the failed completion wrote before the lost piece (llama.cpp's count, else the chunks received). */
  written: number;
  /** The most tokens the step writes (tokenLimit). */
  limit: number;
  /** A piece of this step was replaced before: the notice was given then. */
  replacedBefore: boolean;
}

export type AfterLostPiece = {
  /** What the step's output gets in place of the piece. */
  text: string;
  notice?: Extract<ModelDelta, { type: 'notice' }>;
  /** Tokens the step has written, the lost piece included. */
  generated: number;
} & ({ /** The next completion's n_predict. */ left: number } | { finish: 'length' });

/** How the step goes on after a piece that is not UTF-8; undefined for any other failure. */
export function goOnAfterInvalidUtf8(failure: Failure, piece: LostPiece): AfterLostPiece | undefined {
  if (failure.recovery !== 'replace') return undefined;
  const generated = piece.generated + piece.written + 1; // the lost piece was a token too
  const left = piece.limit - generated;
  return {
    text: REPLACEMENT,
    ...(!piece.replacedBefore && {
      notice: {
        type: 'notice',
        code: 'invalid-utf8',
        message: `${failure.error.message}. Such a piece cannot reach JavaScript through wllama: each is written as U+FFFD (${REPLACEMENT}), and the step went on after it.`,
      },
    }),
    generated,
    ...(left > 0 ? { left } : { finish: 'length' as const }),
  };
}

/** The most tokens a step writes: the page's n_predict (its -1, no limit, is the context window), else max_tokens. */
export function tokenLimit(
  completion: Record<string, unknown> | undefined,
  maxTokens: number,
  contextWindow: number,
): number {
  const own = completion?.n_predict;
  if (typeof own !== 'number') return maxTokens;
  return own < 0 ? contextWindow : own;
}
