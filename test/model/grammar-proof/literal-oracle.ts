/**
 * The values in the two non-JSON argument syntaxes our grammars allow
 * (grammar/ebnf-arguments.ts), read the way the languages define them and
 * independently of our readers: Python keyword arguments (Gemma's
 * ```tool_code) and Gemma 4's `{key:<|"|>text<|"|>,n:1}`. A text without a
 * single meaning in its language (an escape Python refuses) throws: the
 * grammar should not have let it through.
 */

/** Where the keyword arguments that start at `from` end (the call's closing parenthesis), or -1 if the text ends first. */
export function endOfPythonArguments(text: string, from: number): number {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"' || ch === "'") {
      for (i++; i < text.length && text[i] !== ch; i++) if (text[i] === '\\') i++;
      if (i >= text.length) return -1;
    } else if (ch === '[' || ch === '{' || ch === '(') depth++;
    else if (ch === ']' || ch === '}') depth--;
    else if (ch === ')') {
      if (depth === 0) return i;
      depth--;
    }
  }
  return -1;
}

/** `a="x", b=[1, 2]` as a record. */
export function parsePythonArguments(body: string): Record<string, unknown> {
  const reader = new Cursor(body, 0);
  const args: Record<string, unknown> = {};
  while (reader.at < body.length) {
    const key = /[A-Za-z_][A-Za-z0-9_]*=/y;
    key.lastIndex = reader.at;
    const match = key.exec(body);
    if (!match) throw new Error(`not a keyword argument: ${JSON.stringify(body.slice(reader.at, reader.at + 30))}`);
    reader.at = key.lastIndex;
    args[match[0].slice(0, -1)] = pythonValue(reader);
    if (reader.at < body.length) reader.expect(',');
    reader.skip(' ');
  }
  return args;
}

class Cursor {
  constructor(
    readonly text: string,
    public at: number,
  ) {}
  get done(): boolean {
    return this.at >= this.text.length;
  }
  peek(length = 1): string {
    return this.text.slice(this.at, this.at + length);
  }
  skip(chars: string): void {
    while (!this.done && chars.includes(this.text[this.at])) this.at++;
  }
  take(word: string): boolean {
    if (!this.text.startsWith(word, this.at)) return false;
    this.at += word.length;
    return true;
  }
  expect(word: string): void {
    if (this.take(word)) return;
    this.cutIfStartOf([word]);
    throw new Error(`expected ${word} at ${JSON.stringify(this.text.slice(this.at, this.at + 30))}`);
  }
  /** The text ends with the start of one of `words`. */
  cutIfStartOf(words: string[]): void {
    const rest = this.text.slice(this.at);
    if (words.some((word) => word.startsWith(rest))) throw CUT;
  }
}

/** Thrown when the text ends inside a value. */
const CUT = new Error('cut');

function pythonValue(r: Cursor): unknown {
  if (r.done) throw CUT;
  const ch = r.peek();
  if (ch === '"' || ch === "'") return pythonString(r);
  if (r.take('True')) return true;
  if (r.take('False')) return false;
  if (r.take('None')) return null;
  if (ch === '[') return list(r, pythonValue);
  if (ch === '{') {
    r.at++;
    const dict: Record<string, unknown> = {};
    while (!r.take('}')) {
      if (Object.keys(dict).length) (r.expect(','), r.skip(' '));
      const key = pythonString(r);
      r.expect(':');
      r.skip(' ');
      dict[key] = pythonValue(r);
    }
    return dict;
  }
  return number(r);
}

function list(r: Cursor, item: (r: Cursor) => unknown): unknown[] {
  r.expect('[');
  const values: unknown[] = [];
  while (!r.take(']')) {
    if (values.length) (r.expect(','), r.skip(' '));
    values.push(item(r));
  }
  return values;
}

function number(r: Cursor): number {
  const match = /-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?/y;
  match.lastIndex = r.at;
  const found = match.exec(r.text);
  if (!found) {
    r.cutIfStartOf(['-', 'True', 'False', 'None', 'true', 'false', 'null']);
    throw new Error(`not a value: ${JSON.stringify(r.peek(30))}`);
  }
  r.at = match.lastIndex;
  // An integer is an int whatever zeros lead it or sign it (-0 is 0); a float keeps its sign.
  return found[1] || found[2] ? Number(found[0]) : Number(found[0]) + 0;
}

const SIMPLE_ESCAPES: Record<string, string> = {
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
};

/** A Python string literal, its escapes as Python reads them (an unknown escape keeps its backslash). */
function pythonString(r: Cursor): string {
  const quote = r.peek();
  if (quote !== '"' && quote !== "'")
    throw r.done ? CUT : new Error(`expected a string at ${JSON.stringify(r.peek(30))}`);
  r.at++;
  let out = '';
  for (;;) {
    if (r.done) throw CUT;
    const ch = r.text[r.at++];
    if (ch === quote) return out;
    if (ch !== '\\') {
      out += ch;
      continue;
    }
    if (r.done) throw CUT;
    const next = r.text[r.at++];
    if (next in SIMPLE_ESCAPES) out += SIMPLE_ESCAPES[next];
    else if (/[0-7]/.test(next)) {
      const octal = /[0-7]{0,2}/y;
      octal.lastIndex = r.at;
      const more = octal.exec(r.text)![0];
      r.at += more.length;
      out += String.fromCharCode(parseInt(next + more, 8));
    } else if (next === 'x' || next === 'u' || next === 'U') {
      const digits = next === 'x' ? 2 : next === 'u' ? 4 : 8;
      const hex = r.text.slice(r.at, r.at + digits);
      if (hex.length < digits && r.at + hex.length >= r.text.length) throw CUT;
      if (!new RegExp(`^[0-9a-fA-F]{${digits}}$`).test(hex))
        throw new Error(`\\${next}${hex} is not a Python escape (a SyntaxError in Python)`);
      r.at += digits;
      out += String.fromCodePoint(parseInt(hex, 16));
    } else if (next === 'N') throw new Error('a \\N{…} escape names a character this check cannot look up');
    else out += `\\${next}`;
  }
}

/** Gemma 4's `{key:value,…}` starting at `from`: its value and where it ends, or 'cut'. */
export function parseGemma4Object(text: string, from: number): { value: unknown; end: number } | 'cut' {
  const r = new Cursor(text, from);
  try {
    const value = gemma4Object(r);
    return { value, end: r.at };
  } catch (error) {
    if (error === CUT) return 'cut';
    throw error;
  }
}

const GEMMA4_QUOTE = '<|"|>';

function gemma4Object(r: Cursor): Record<string, unknown> {
  r.expect('{');
  const object: Record<string, unknown> = {};
  let first = true;
  while (!r.take('}')) {
    if (!first) (r.expect(','), r.skip(' '));
    first = false;
    let key: string;
    if (r.peek(GEMMA4_QUOTE.length) === GEMMA4_QUOTE) key = gemma4String(r);
    else {
      const bare = /[A-Za-z_][A-Za-z0-9_]*/y;
      bare.lastIndex = r.at;
      const match = bare.exec(r.text);
      if (!match) throw r.done ? CUT : new Error(`not a key: ${JSON.stringify(r.peek(30))}`);
      r.at = bare.lastIndex;
      key = match[0];
    }
    r.expect(':');
    r.skip(' ');
    object[key] = gemma4Value(r);
  }
  return object;
}

function gemma4Value(r: Cursor): unknown {
  if (r.done) throw CUT;
  if (GEMMA4_QUOTE.startsWith(r.peek(GEMMA4_QUOTE.length)) && r.peek() === '<') return gemma4String(r);
  if (r.take('true')) return true;
  if (r.take('false')) return false;
  if (r.take('null')) return null;
  if (r.peek() === '[') return list(r, gemma4Value);
  if (r.peek() === '{') return gemma4Object(r);
  return number(r);
}

/** `<|"|>text<|"|>`: the text as written, no escapes. */
function gemma4String(r: Cursor): string {
  r.expect(GEMMA4_QUOTE);
  const close = r.text.indexOf(GEMMA4_QUOTE, r.at);
  if (close === -1) throw CUT;
  const value = r.text.slice(r.at, close);
  r.at = close + GEMMA4_QUOTE.length;
  return value;
}
