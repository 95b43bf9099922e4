/**
 * The chance that a step opens with a call, from its first token's
 * probabilities (an engine's top log-probabilities): the mass of the tokens
 * that begin one of the format's call openers, over the mass of those and of
 * the tokens that begin words (a letter or a digit, in any script), which are
 * the two ways a step that may call or answer is allowed to open (the
 * grammar's wordsOrCall). Tokens neither way allows (white space, a bracket
 * that opens no call) count for neither.
 */
export interface TokenChance {
  /** The token's text. */
  token: string;
  logprob: number;
}

/** `undefined` when no listed token opens either way: the probabilities say nothing. */
export function callChanceOf(first: readonly TokenChance[], openers: readonly string[]): number | undefined {
  let call = 0;
  let words = 0;
  for (const { token, logprob } of first) {
    if (!token) continue;
    const p = Math.exp(logprob);
    if (openers.some((opener) => opener.startsWith(token) || token.startsWith(opener))) call += p;
    else if (WORD_START.test(token)) words += p;
  }
  return call + words > 0 ? call / (call + words) : undefined;
}

/** What words open with: a letter or a digit, or any character past Latin-1's symbols (as WORDS_GBNF allows). */
const WORD_START = /^[0-9A-Za-z\u00c0-\u{10ffff}]/u;
