/**
 * "The worst possible model": a language model with no preferences at all,
 * decoding under a grammar exactly as web-llm does (ask the GrammarMatcher for
 * the bitmask of allowed tokens, pick one, accept it), picking at random among
 * whatever the grammar allows. Anything a real model can emit under the
 * grammar, this one emits with some probability.
 *
 * Pure uniform sampling over ~150k tokens never finishes a call (a JSON
 * string closes only when one of the few tokens with a quote is drawn, and
 * the grammar allows any run of whitespace between JSON tokens), so the draw
 * is uniform within one of five classes of tokens picked with fixed weights
 * (tokens with a quote, with a closing bracket, with other punctuation,
 * whitespace only, the rest), and, with a small probability, the next piece
 * of one of the format's own markup strings (its trigger, end tags…). The
 * markup is the "bias to enter the trigger" in free text; inside a call it
 * writes the format's own tags into strings, where readers most often go
 * wrong. In free text the model also stops (a stop token) with a fixed
 * probability. Every allowed token keeps a non-zero chance; the seed makes a
 * run repeatable.
 */
import type { Matcher } from './xgrammar';
import type { Vocabulary } from './vocabulary';

export interface RandomModelOptions {
  /** The format's own markup (triggers first): written piece by piece more often than chance. */
  markup: string[];
  /** The longest output, in tokens; a longer one ends with finish reason 'length'. */
  maxTokens: number;
}

export interface Generation {
  seed: number;
  tokens: number[];
  /** The output as web-llm hands it over: decoded by the real tokenizer, stop token not included. */
  text: string;
  finish: 'stop' | 'length';
  /** Stretches in which the grammar forbade stopping (calls, and reasoning blocks where a format has them) that closed. */
  closedSpans: number;
  /** The output was cut off inside such a stretch: a call left open. */
  cutInsideSpan: boolean;
}

/** Probabilities per step. */
const P_STOP_IN_TEXT = 0.12;
const P_MARKUP_IN_TEXT = 0.3;
const P_MARKUP_IN_CALL = 0.03;
/** Once a markup string is begun, the next piece follows with this probability (a model that starts a tag mostly finishes it). */
const P_GO_ON_WRITING_MARKUP = 0.9;
const CLASS_WEIGHTS = { quote: 0.3, closing: 0.15, punctuation: 0.2, dot: 0.1, other: 0.34, space: 0.01 };
type TokenClass = keyof typeof CLASS_WEIGHTS;
const CLASSES = Object.keys(CLASS_WEIGHTS) as TokenClass[];
const CLOSING = /['}\])>]/;
const PUNCTUATION = /[{[,:<=(\\/|`@#;]/;

export class RandomModel {
  private readonly classes: ClassMasks;
  private readonly byFirstChar = new Map<string, number[]>();
  private readonly continuations = new Map<string, number[]>();
  private readonly stopIds: Set<number>;
  private readonly size: number;

  constructor(
    private readonly matcher: Matcher,
    private readonly vocabulary: Vocabulary,
    private readonly options: RandomModelOptions,
  ) {
    this.size = vocabulary.tokens.length;
    this.stopIds = new Set(vocabulary.stopTokenIds);
    const words = Math.ceil(this.size / 32);
    const masks = Object.fromEntries(CLASSES.map((kind) => [kind, new Int32Array(words)])) as ClassMasks['masks'];
    vocabulary.pieces.forEach((piece, id) => {
      if (!piece || this.stopIds.has(id)) return;
      masks[classOf(piece)][id >>> 5] |= 1 << (id & 31);
      const first = piece[0];
      let list = this.byFirstChar.get(first);
      if (!list) this.byFirstChar.set(first, (list = []));
      list.push(id);
    });
    const fullWordCounts = Object.fromEntries(
      CLASSES.map((kind) => [kind, Uint8Array.from(masks[kind], (word) => popcount(word))]),
    ) as ClassMasks['fullWordCounts'];
    const members = Object.fromEntries(CLASSES.map((kind) => [kind, [] as number[]])) as ClassMasks['members'];
    for (let id = 0; id < this.size; id++) for (const kind of CLASSES) if (has(masks[kind], id)) members[kind].push(id);
    const classWords = Object.fromEntries(
      CLASSES.map((kind) => [kind, Int32Array.from(masks[kind].keys()).filter((w) => masks[kind][w] !== 0)]),
    ) as ClassMasks['words'];
    this.classes = { masks, fullWordCounts, members, words: classWords };
    this.wordBuffer = new Int32Array(words);
  }

  async generate(seed: number): Promise<Generation> {
    const random = seededRandom(seed);
    const { matcher, vocabulary } = this;
    matcher.reset();
    const tokens: number[] = [];
    let tail = '';
    let writing: string | undefined;
    let closedSpans = 0;
    let inSpan = false;
    let finish: Generation['finish'] = 'length';
    for (;;) {
      const mask = await matcher.getNextTokenBitmask();
      const stopAllowed = vocabulary.stopTokenIds.some((id) => has(mask, id));
      if (inSpan && stopAllowed) closedSpans++;
      inSpan = !stopAllowed;
      if (tokens.length >= this.options.maxTokens) break;

      const { token, markup } = this.pick(mask, stopAllowed, tail, writing, random);
      if (!matcher.acceptToken(token))
        throw new Error(`xgrammar refused token ${token} that its own bitmask allowed (seed ${seed})`);
      if (this.stopIds.has(token)) {
        if (!matcher.isTerminated()) throw new Error(`a stop token did not end the grammar (seed ${seed})`);
        finish = 'stop';
        break;
      }
      tokens.push(token);
      tail = (tail + vocabulary.pieces[token]).slice(-64);
      writing = markup && !tail.endsWith(markup) ? markup : undefined;
    }
    return { seed, tokens, text: vocabulary.decode(tokens), finish, closedSpans, cutInsideSpan: inSpan };
  }

  private pick(
    mask: Int32Array,
    stopAllowed: boolean,
    tail: string,
    writing: string | undefined,
    random: () => number,
  ): { token: number; markup?: string } {
    if (!writing && stopAllowed && random() < P_STOP_IN_TEXT) {
      const stops = this.vocabulary.stopTokenIds.filter((id) => has(mask, id));
      return { token: stops[Math.floor(random() * stops.length)] };
    }
    const markupChance = writing ? P_GO_ON_WRITING_MARKUP : stopAllowed ? P_MARKUP_IN_TEXT : P_MARKUP_IN_CALL;
    if (random() < markupChance) {
      const markup = this.options.markup;
      // The trigger (first) half of the time in free text, so that calls start often.
      const target =
        writing ?? (stopAllowed && random() < 0.5 ? markup[0] : markup[Math.floor(random() * markup.length)]);
      const next = this.continuationOf(target, tail).filter((id) => has(mask, id));
      if (next.length) return { token: next[Math.floor(random() * next.length)], markup: target };
    }
    return { token: this.pickByClass(mask, random) };
  }

  /**
   * Uniform within a class chosen by weight among the classes that have an allowed token. Where
   * the grammar allows much (free text, strings) a few random members of the drawn class find an
   * allowed one; otherwise every class's allowed tokens are counted in one pass over the mask and
   * the draw is made among the classes that have some. Either way each allowed member is equally likely.
   */
  private pickByClass(mask: Int32Array, random: () => number): number {
    const kind = drawClass(CLASSES, random);
    const members = this.classes.members[kind];
    for (let attempt = 0; attempt < 16 && members.length; attempt++) {
      const id = members[Math.floor(random() * members.length)];
      if (has(mask, id)) return id;
    }
    // Where the grammar allows little, one pass over the words it allows counts every class; where it
    // allows much, each class is seen to be present at its first allowed token and only the drawn one
    // is counted.
    const allowed = this.allowedWords(mask);
    const sparse = allowed.length < this.sparseWords;
    const counts = sparse ? this.countsIn(allowed, mask) : undefined;
    const present = CLASSES.filter((kind, k) => (counts ? counts[k] > 0 : this.allows(kind, mask)));
    if (!present.length) throw new Error('the grammar allows no token but a stop token, yet forbids stopping');
    const chosen = drawClass(present, random);
    const count = counts ? counts[CLASSES.indexOf(chosen)] : this.allowedCount(chosen, mask);
    const n = Math.floor(random() * count);
    return this.nthAllowed(chosen, mask, n);
  }

  private readonly wordBuffer: Int32Array;
  private get sparseWords(): number {
    return this.wordBuffer.length >>> 4;
  }

  /** The indices of the words of the mask that allow anything. */
  private allowedWords(mask: Int32Array): Int32Array {
    let n = 0;
    const buffer = this.wordBuffer;
    for (let w = 0; w < mask.length; w++) if (mask[w] !== 0) buffer[n++] = w;
    return buffer.subarray(0, n);
  }

  private countsIn(words: Int32Array, mask: Int32Array): number[] {
    const counts = CLASSES.map(() => 0);
    for (let k = 0; k < CLASSES.length; k++) {
      const classMask = this.classes.masks[CLASSES[k]];
      const full = this.classes.fullWordCounts[CLASSES[k]];
      for (const w of words) counts[k] += mask[w] === -1 ? full[w] : popcount(mask[w] & classMask[w]);
    }
    return counts;
  }

  /** Whether the mask allows a token of the class: its words only, up to the first one that does. */
  private allows(kind: TokenClass, mask: Int32Array): boolean {
    const classMask = this.classes.masks[kind];
    for (const w of this.classes.words[kind]) if ((mask[w] & classMask[w]) !== 0) return true;
    return false;
  }

  /** How many tokens of the class the mask allows; words the grammar allows whole are counted from a table. */
  private allowedCount(kind: TokenClass, mask: Int32Array): number {
    const classMask = this.classes.masks[kind];
    const full = this.classes.fullWordCounts[kind];
    let count = 0;
    for (const w of this.classes.words[kind]) {
      const m = mask[w];
      if (m !== 0) count += m === -1 ? full[w] : popcount(m & classMask[w]);
    }
    return count;
  }

  /** The id of the n-th (from 0) token of the class the mask allows. */
  private nthAllowed(kind: TokenClass, mask: Int32Array, n: number): number {
    const classMask = this.classes.masks[kind];
    for (const w of this.classes.words[kind]) {
      let bits = mask[w] & classMask[w];
      const count = popcount(bits);
      if (n >= count) {
        n -= count;
        continue;
      }
      for (; n > 0; n--) bits &= bits - 1;
      return w * 32 + 31 - Math.clz32(bits & -bits);
    }
    throw new Error('fewer tokens in the mask than counted');
  }

  /** Tokens that write the rest of `markup`, given how much of it the text already ends with. */
  private continuationOf(markup: string, tail: string): number[] {
    let written = Math.min(markup.length - 1, tail.length);
    while (written > 0 && !tail.endsWith(markup.slice(0, written))) written--;
    const rest = markup.slice(written);
    let list = this.continuations.get(rest);
    if (!list) {
      list = (this.byFirstChar.get(rest[0]) ?? []).filter((id) => {
        const piece = this.vocabulary.pieces[id];
        return rest.startsWith(piece) || piece.startsWith(rest);
      });
      this.continuations.set(rest, list);
    }
    return list;
  }
}

function drawClass(kinds: readonly TokenClass[], random: () => number): TokenClass {
  let roll = random() * kinds.reduce((sum, kind) => sum + CLASS_WEIGHTS[kind], 0);
  return kinds.find((kind) => (roll -= CLASS_WEIGHTS[kind]) < 0) ?? kinds[kinds.length - 1];
}

/** One bitmask per class, in the matcher's layout, so that a step intersects words instead of visiting tokens. */
interface ClassMasks {
  masks: Record<TokenClass, Int32Array>;
  /** Per class and word, the class's tokens in that word (for words the grammar allows whole). */
  fullWordCounts: Record<TokenClass, Uint8Array>;
  members: Record<TokenClass, number[]>;
  /** Per class, the indices of the words that hold any of its tokens. */
  words: Record<TokenClass, Int32Array>;
}

function classOf(piece: string): TokenClass {
  if (/^\s+$/.test(piece)) return 'space';
  if (piece.includes('"')) return 'quote';
  if (CLOSING.test(piece)) return 'closing';
  if (piece.startsWith('.')) return 'dot';
  if (PUNCTUATION.test(piece)) return 'punctuation';
  return 'other';
}

/** Bit `id` of a bitmask from GrammarMatcher.getNextTokenBitmask: set means token `id` may come next. */
function has(mask: Int32Array, id: number): boolean {
  return (mask[id >>> 5] & (1 << (id & 31))) !== 0;
}

function popcount(word: number): number {
  let v = word - ((word >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** mulberry32: small, fast, and the same sequence for the same seed everywhere. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
