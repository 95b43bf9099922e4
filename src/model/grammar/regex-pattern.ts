/**
 * A JSON Schema `pattern` (an ECMAScript regular expression, compiled as our
 * validator compiles it: with the `u` flag, or without it when only that
 * works) as a tree of character sets, sequences, choices and repetitions, so
 * that a grammar can write it in any string syntax.
 *
 * JSON Schema patterns are not anchored: `@` means "holds an @". Where an
 * alternative does not start with `^` (or end with `$`), any text may stand
 * before (or after) it. What a grammar cannot hold is refused with a reason:
 * lookaround, back-references, word boundaries, anchors inside the pattern.
 */
import { ANY_CHAR, charSet, intersect, MAX_CODE_POINT, subtract, union, type CharSet } from './char-set';

export type Regex =
  | { kind: 'chars'; set: CharSet }
  | { kind: 'sequence'; items: Regex[] }
  | { kind: 'choice'; options: Regex[] }
  | { kind: 'repeat'; item: Regex; min: number; max: number };

export class UnsupportedPattern extends Error {}

/**
 * Groups nested deeper than this are refused: each level nests the grammar a
 * little deeper, and xgrammar's wasm fails beyond a few hundred levels (a
 * memory fault, after which it compiles nothing more in that page).
 */
const MAX_GROUP_DEPTH = 32;

const DIGIT = charSet([0x30, 0x39]);
const WORD = charSet([0x30, 0x39], [0x41, 0x5a], [0x61, 0x7a], '_');
const SPACE = charSet([0x09, 0x0d], [0x2000, 0x200a], ' \u00a0\u1680\u2028\u2029\u202f\u205f\u3000\ufeff');
const LINE_TERMINATORS = charSet('\n\r\u2028\u2029');
/** Without the `u` flag a regular expression matches UTF-16 units: only those that are whole characters are kept. */
const BMP_CHARS = subtract(charSet([0, 0xffff]), charSet([0xd800, 0xdfff]));

/** The pattern as a tree, anchors resolved; throws UnsupportedPattern for what no grammar can hold. */
export function parsePattern(source: string): Regex {
  let unicode = true;
  try {
    new RegExp(source, 'u');
  } catch {
    unicode = false;
  }
  const parser = new PatternParser(source, unicode);
  const alternatives = parser.alternatives(true);
  if (parser.at < source.length) parser.fail(`an unmatched ")"`);
  const any: Regex = { kind: 'repeat', item: { kind: 'chars', set: parser.all }, min: 0, max: Infinity };
  const options = alternatives.map(({ items, start, end }) => {
    const full = [...(start ? [] : [any]), ...items, ...(end ? [] : [any])];
    return full.length === 1 ? full[0] : ({ kind: 'sequence', items: full } as Regex);
  });
  return options.length === 1 ? options[0] : { kind: 'choice', options };
}

interface Alternative {
  items: Regex[];
  start: boolean;
  end: boolean;
}

class PatternParser {
  at = 0;
  private depth = 0;
  /** Every character the pattern's engine can match as one. */
  readonly all: CharSet;

  constructor(
    private readonly source: string,
    private readonly unicode: boolean,
  ) {
    this.all = unicode ? ANY_CHAR : BMP_CHARS;
  }

  fail(what: string): never {
    throw new UnsupportedPattern(`${what} (at character ${this.at} of the pattern)`);
  }

  /** Alternatives up to ")" or the end; anchors are allowed at the ends of top-level alternatives only. */
  alternatives(top: boolean): Alternative[] {
    const out: Alternative[] = [];
    for (;;) {
      const alternative: Alternative = { items: [], start: false, end: false };
      if (this.peek() === '^') {
        if (!top) this.fail('an anchor "^" inside a group cannot be held by a grammar');
        alternative.start = true;
        this.at++;
      }
      while (this.at < this.source.length && this.peek() !== '|' && this.peek() !== ')') {
        if (this.peek() === '$') {
          this.at++;
          if (!top || (this.at < this.source.length && this.peek() !== '|'))
            this.fail('an anchor "$" before the end cannot be held by a grammar');
          alternative.end = true;
          break;
        }
        if (this.peek() === '^') this.fail('an anchor "^" after the start cannot be held by a grammar');
        alternative.items.push(this.quantified());
      }
      out.push(alternative);
      if (this.peek() !== '|') return out;
      this.at++;
    }
  }

  private peek(offset = 0): string {
    return this.source[this.at + offset] ?? '';
  }

  private quantified(): Regex {
    const atom = this.atom();
    const bounds = this.quantifier();
    if (!bounds) return atom;
    if (this.peek() === '?') this.at++; // lazy: matches the same strings
    return { kind: 'repeat', item: atom, min: bounds.min, max: bounds.max };
  }

  private quantifier(): { min: number; max: number } | undefined {
    const ch = this.peek();
    if (ch === '*' || ch === '+' || ch === '?') {
      this.at++;
      return { min: ch === '+' ? 1 : 0, max: ch === '?' ? 1 : Infinity };
    }
    if (ch !== '{') return undefined;
    const match = /^\{(\d+)(,(\d*))?\}/.exec(this.source.slice(this.at));
    if (!match) {
      if (this.unicode) this.fail('a "{" that opens no repetition');
      return undefined; // Annex B: a literal "{"
    }
    this.at += match[0].length;
    const min = Number(match[1]);
    const max = match[2] === undefined ? min : match[3] === '' ? Infinity : Number(match[3]);
    if (max < min) this.fail('a repetition whose maximum is below its minimum');
    return { min, max };
  }

  private atom(): Regex {
    const ch = this.peek();
    if (ch === '(') return this.group();
    if (ch === '[') return { kind: 'chars', set: this.charClass() };
    if (ch === '.') {
      this.at++;
      return { kind: 'chars', set: subtract(this.all, LINE_TERMINATORS) };
    }
    if (ch === '\\') return this.escape();
    if ('*+?'.includes(ch)) this.fail(`a "${ch}" with nothing to repeat`);
    if (ch === '{' && this.unicode) this.fail('a "{" with nothing to repeat');
    return { kind: 'chars', set: this.literal() };
  }

  private group(): Regex {
    this.at++;
    if (++this.depth > MAX_GROUP_DEPTH) this.fail(`groups nested more than ${MAX_GROUP_DEPTH} deep`);
    if (this.peek() === '?') {
      const kind = this.source.slice(this.at, this.at + 3);
      if (kind.startsWith('?:')) this.at += 2;
      else if (kind.startsWith('?=') || kind.startsWith('?!') || kind === '?<=' || kind === '?<!')
        this.fail('lookaround cannot be held by a grammar');
      else if (kind.startsWith('?<')) {
        const close = this.source.indexOf('>', this.at);
        if (close === -1) this.fail('a named group without its closing ">"');
        this.at = close + 1;
      } else this.fail('a group of a kind a grammar cannot hold');
    }
    const alternatives = this.alternatives(false);
    if (this.peek() !== ')') this.fail('a group that is not closed');
    this.at++;
    this.depth--;
    const options = alternatives.map(({ items }) =>
      items.length === 1 ? items[0] : ({ kind: 'sequence', items } as Regex),
    );
    return options.length === 1 ? options[0] : { kind: 'choice', options };
  }

  private escape(): Regex {
    const next = this.peek(1);
    if (/[1-9]/.test(next) || (next === 'k' && this.peek(2) === '<'))
      this.fail('a back-reference cannot be held by a grammar');
    if (next === 'b' || next === 'B') this.fail('a word boundary cannot be held by a grammar');
    return { kind: 'chars', set: this.classEscape(false) };
  }

  /** `\d`, `\n`, `\u0041`, `\.`…: the set it stands for; `\b` is a backspace inside a class. */
  private classEscape(inClass: boolean): CharSet {
    this.at++; // the backslash
    const ch = this.peek();
    if (!ch) this.fail('a pattern that ends in a backslash');
    this.at++;
    const shorthand: Record<string, CharSet> = { d: DIGIT, w: WORD, s: SPACE };
    if (ch in shorthand) return intersect(shorthand[ch], this.all);
    if (ch.toLowerCase() in shorthand) return subtract(this.all, shorthand[ch.toLowerCase()]);
    const controls: Record<string, string> = { t: '\t', n: '\n', r: '\r', v: '\v', f: '\f' };
    if (ch in controls) return charSet(controls[ch]);
    if (ch === 'b' && inClass) return charSet('\b');
    if (ch === '0' && !/[0-9]/.test(this.peek())) return charSet('\0');
    if (ch === 'x') return charSet(String.fromCharCode(this.hex(2)));
    if (ch === 'u') {
      if (this.peek() === '{' && this.unicode) {
        const close = this.source.indexOf('}', this.at);
        const value = parseInt(this.source.slice(this.at + 1, close), 16);
        if (close === -1 || !(value <= MAX_CODE_POINT)) this.fail('a malformed \\u{…} escape');
        this.at = close + 1;
        return [[value, value]];
      }
      const unit = this.hex(4);
      if (unit >= 0xd800 && unit <= 0xdbff && this.source.startsWith('\\u', this.at)) {
        const low = parseInt(this.source.slice(this.at + 2, this.at + 6), 16);
        if (low >= 0xdc00 && low <= 0xdfff && this.unicode) {
          this.at += 6;
          const codePoint = 0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00);
          return [[codePoint, codePoint]];
        }
      }
      return [[unit, unit]];
    }
    if (ch === 'p' || ch === 'P') this.fail('a Unicode property escape cannot be held by a grammar');
    if (ch === 'c') this.fail('a control-letter escape cannot be held by a grammar');
    if (/[A-Za-z0-9]/.test(ch) && this.unicode) this.fail(`the escape \\${ch}`);
    return charSet(ch);
  }

  private hex(digits: number): number {
    const text = this.source.slice(this.at, this.at + digits);
    if (!new RegExp(`^[0-9a-fA-F]{${digits}}$`).test(text)) this.fail('a malformed hexadecimal escape');
    this.at += digits;
    return parseInt(text, 16);
  }

  private literal(): CharSet {
    const codePoint = this.source.codePointAt(this.at)!;
    this.at += codePoint > 0xffff ? 2 : 1;
    return [[codePoint, codePoint]];
  }

  private charClass(): CharSet {
    this.at++;
    const negated = this.peek() === '^';
    if (negated) this.at++;
    let set: CharSet = [];
    while (this.peek() !== ']') {
      if (this.at >= this.source.length) this.fail('a character class that is not closed');
      const from = this.classAtom();
      if (this.peek() === '-' && this.peek(1) !== ']' && this.peek(1) !== '') {
        this.at++;
        const to = this.classAtom();
        if (from.length !== 1 || to.length !== 1 || from[0][0] !== from[0][1] || to[0][0] !== to[0][1]) {
          if (this.unicode) this.fail('a class range between character classes');
          set = union(set, from, to, charSet('-')); // Annex B: the "-" is literal
          continue;
        }
        if (to[0][0] < from[0][0]) this.fail('a class range out of order');
        set = union(set, [[from[0][0], to[0][0]]]);
      } else set = union(set, from);
    }
    this.at++;
    const chars = intersect(set, this.all);
    return negated ? subtract(this.all, chars) : chars;
  }

  private classAtom(): CharSet {
    if (this.peek() === '\\') return this.classEscape(true);
    const literal = this.literal();
    if (!this.unicode && literal[0][0] > 0xffff)
      this.fail('a character outside the BMP in a class of a non-Unicode pattern');
    return literal;
  }
}
