/**
 * Reads one value as small models write it: JSON, or near-JSON (single
 * quotes, Python's True/False/None, unquoted keys, trailing commas, a raw tab
 * or newline inside a string), or Gemma 4's notation (strings between
 * `<|"|>` marks, bare keys). One pass, left to right: linear in the text.
 *
 * It never closes what the model left open: a value that stops before its
 * closing quote or bracket is reported as cut off, so that no call is ever
 * run from output that was interrupted.
 */
export type LiteralResult =
  { ok: true; value: unknown; end: number } | { ok: false; end: number; cutOff: boolean; why: string };

export interface LiteralOptions {
  /** Gemma 4 writes strings as <|"|>text<|"|>. */
  gemmaStrings?: boolean;
  /** Strings are Python's: its escapes (\x41, \101, \N is refused), and one it does not know keeps its backslash. */
  python?: boolean;
}

const GEMMA_QUOTE = '<|"|>';
/** Deeper nesting than any tool argument needs; beyond it a hostile output would exhaust the stack. */
const MAX_DEPTH = 128;
const WORDS: Record<string, unknown> = {
  true: true,
  false: false,
  null: null,
  True: true,
  False: false,
  None: null,
};

class Cut extends Error {
  constructor(
    readonly at: number,
    readonly cutOff: boolean,
    readonly why: string,
  ) {
    super(why);
  }
}

/** Reads the value that starts at `start` (leading whitespace allowed). */
export function readLiteral(text: string, start: number, options: LiteralOptions = {}): LiteralResult {
  const reader = new LiteralReader(text, options);
  try {
    const value = reader.value(reader.skip(start), 0);
    return { ok: true, value: value.value, end: value.end };
  } catch (error) {
    if (error instanceof Cut) return { ok: false, end: error.at, cutOff: error.cutOff, why: error.why };
    throw error;
  }
}

/** The whole text is one value (whitespace around it allowed). */
export function parseLiteral(text: string, options: LiteralOptions = {}): LiteralResult {
  const result = readLiteral(text, 0, options);
  if (!result.ok) return result;
  const rest = skipWhitespace(text, result.end);
  if (rest < text.length)
    return { ok: false, end: rest, cutOff: false, why: `unexpected text after the value at character ${rest}` };
  return result;
}

export function skipWhitespace(text: string, at: number): number {
  while (at < text.length && isSpace(text.charCodeAt(at))) at += 1;
  return at;
}

function isSpace(code: number): boolean {
  return code === 32 || code === 10 || code === 13 || code === 9;
}

class LiteralReader {
  constructor(
    private readonly text: string,
    private readonly options: LiteralOptions,
  ) {}

  skip(at: number): number {
    return skipWhitespace(this.text, at);
  }

  value(at: number, depth: number): { value: unknown; end: number } {
    const text = this.text;
    if (at >= text.length) throw new Cut(at, true, 'it stops before a value');
    if (depth > MAX_DEPTH) throw new Cut(at, false, `it is nested more than ${MAX_DEPTH} levels deep`);
    const ch = text[at];
    if (ch === '{') return this.object(at, depth);
    if (ch === '[') return this.array(at, depth);
    if (ch === '"' || ch === "'") return this.quoted(at, ch);
    if (this.options.gemmaStrings && text.startsWith(GEMMA_QUOTE, at)) return this.gemmaString(at);
    if (ch === '-' || (ch >= '0' && ch <= '9')) return this.number(at);
    const word = this.word(at);
    if (word && word in WORDS) return { value: WORDS[word], end: at + word.length };
    throw new Cut(at, false, `unexpected ${word ? `word "${word}"` : `character "${ch}"`} at character ${at}`);
  }

  private object(at: number, depth: number): { value: Record<string, unknown>; end: number } {
    const text = this.text;
    const value: Record<string, unknown> = {};
    let i = this.skip(at + 1);
    for (;;) {
      if (i >= text.length) throw new Cut(i, true, 'an object is not closed');
      if (text[i] === '}') return { value, end: i + 1 };
      const key = this.key(i);
      i = this.skip(key.end);
      if (i >= text.length) throw new Cut(i, true, 'an object is not closed');
      if (text[i] !== ':' && text[i] !== '=')
        throw new Cut(i, false, `expected ":" after the key "${key.value}" at character ${i}`);
      const item = this.value(this.skip(i + 1), depth + 1);
      // Own-property write: a key such as "__proto__" must stay data.
      Object.defineProperty(value, key.value, {
        value: item.value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
      i = this.skip(item.end);
      if (i < text.length && text[i] === ',') i = this.skip(i + 1);
      else if (i < text.length && text[i] !== '}') throw new Cut(i, false, `expected "," or "}" at character ${i}`);
    }
  }

  private array(at: number, depth: number): { value: unknown[]; end: number } {
    const text = this.text;
    const value: unknown[] = [];
    let i = this.skip(at + 1);
    for (;;) {
      if (i >= text.length) throw new Cut(i, true, 'a list is not closed');
      if (text[i] === ']') return { value, end: i + 1 };
      const item = this.value(i, depth + 1);
      value.push(item.value);
      i = this.skip(item.end);
      if (i < text.length && text[i] === ',') i = this.skip(i + 1);
      else if (i < text.length && text[i] !== ']') throw new Cut(i, false, `expected "," or "]" at character ${i}`);
    }
  }

  private key(at: number): { value: string; end: number } {
    const text = this.text;
    const ch = text[at];
    if (ch === '"' || ch === "'") return this.quoted(at, ch);
    if (this.options.gemmaStrings && text.startsWith(GEMMA_QUOTE, at)) return this.gemmaString(at);
    const word = this.word(at);
    if (!word) throw new Cut(at, false, `expected a key at character ${at}`);
    return { value: word, end: at + word.length };
  }

  private word(at: number): string {
    let end = at;
    while (end < this.text.length && /[\w$-]/.test(this.text[end])) end += 1;
    return this.text.slice(at, end);
  }

  private number(at: number): { value: number; end: number } {
    const match = /-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/y;
    match.lastIndex = at;
    const found = match.exec(this.text);
    if (!found) throw new Cut(at, false, `a number is malformed at character ${at}`);
    // A number at the very end may have been cut off mid-digit; its unclosed container says so.
    return { value: Number(found[0]), end: at + found[0].length };
  }

  /** A string in " or '; escapes as in JSON (and \' as Python writes it), or Python's; raw tabs and newlines kept as they are. */
  private quoted(at: number, quote: string): { value: string; end: number } {
    const text = this.text;
    let out = '';
    let i = at + 1;
    let runStart = i;
    while (i < text.length) {
      const ch = text[i];
      if (ch === quote) return { value: out + text.slice(runStart, i), end: i + 1 };
      if (ch === '\\') {
        out += text.slice(runStart, i);
        if (i + 1 >= text.length) break;
        const next = text[i + 1];
        if (this.options.python) {
          const escape = pythonEscape(text, i);
          out += escape.value;
          i = escape.end;
        } else if (next === 'u') {
          const hex = text.slice(i + 2, i + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) {
            if (i + 6 > text.length) break;
            throw new Cut(i, false, `a \\u escape is malformed at character ${i}`);
          }
          out += String.fromCharCode(parseInt(hex, 16));
          i += 6;
        } else {
          out += ESCAPES[next] ?? next;
          i += 2;
        }
        runStart = i;
        continue;
      }
      i += 1;
    }
    throw new Cut(text.length, true, 'a string is not closed');
  }

  private gemmaString(at: number): { value: string; end: number } {
    const from = at + GEMMA_QUOTE.length;
    const close = this.text.indexOf(GEMMA_QUOTE, from);
    if (close === -1) throw new Cut(this.text.length, true, 'a string is not closed');
    return { value: this.text.slice(from, close), end: close + GEMMA_QUOTE.length };
  }
}

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '/': '/', '\\': '\\' };

const PYTHON_ESCAPES: Record<string, string> = {
  '\\': '\\',
  "'": "'",
  '"': '"',
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\n': '', // a line continuation
};

/** The escape at `at` (a backslash) as Python reads it, and where it ends. */
function pythonEscape(text: string, at: number): { value: string; end: number } {
  const next = text[at + 1];
  if (next in PYTHON_ESCAPES) return { value: PYTHON_ESCAPES[next], end: at + 2 };
  const octal = /[0-7]{1,3}/y;
  octal.lastIndex = at + 1;
  const digits = octal.exec(text);
  if (digits) return { value: String.fromCodePoint(parseInt(digits[0], 8)), end: octal.lastIndex };
  const width = next === 'x' ? 2 : next === 'u' ? 4 : next === 'U' ? 8 : 0;
  if (width) {
    const hex = text.slice(at + 2, at + 2 + width);
    const codePoint = parseInt(hex, 16);
    if (hex.length < width && at + 2 + hex.length >= text.length && /^[0-9a-fA-F]*$/.test(hex))
      throw new Cut(text.length, true, 'a string is not closed');
    if (!new RegExp(`^[0-9a-fA-F]{${width}}$`).test(hex) || codePoint > 0x10ffff)
      throw new Cut(at, false, `\\${next}${hex} is not a valid escape at character ${at}`);
    return { value: String.fromCodePoint(codePoint), end: at + 2 + width };
  }
  if (next === 'N')
    throw new Cut(at, false, `a \\N{…} escape at character ${at} names a character; write the character itself`);
  return { value: `\\${next}`, end: at + 2 };
}
