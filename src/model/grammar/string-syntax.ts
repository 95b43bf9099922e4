/**
 * How each argument syntax writes a string, as the grammar and our readers
 * both take it: its delimiters, any string at all, the characters it writes
 * as themselves, and the escapes for the others. A constrained string (a
 * pattern, a format, a length) is written with these pieces one character at
 * a time, so that what the grammar allows always decodes to a value of the
 * right shape:
 *
 * - json: `"…"` with JSON's escapes; a raw tab or other control character
 *   (but not CR or LF) is allowed and read as itself.
 * - python: `"…"` with Python's escapes, an escape Python does not know
 *   keeping its backslash; no \N{…}, no line continuation.
 * - gemma4: `<|"|>…<|"|>` with no escapes; the text never holds `<|`.
 * - xml (a Qwen3.5 parameter whose schema is a string): the bare text up to
 *   `</parameter>`. The grammar lets whitespace stand around a value, so the
 *   value itself never starts or ends with a space, tab or newline, and `<`
 *   is never followed by `/` or `<`.
 */
import {
  charSet,
  complement,
  ebnfClass,
  ebnfLiteral,
  hasChar,
  intersect,
  isEmpty,
  subtract,
  type CharSet,
} from './char-set';

export type ArgumentSyntax = 'json' | 'xml' | 'python' | 'gemma4';

const HEX = '[0-9a-fA-F]';
/** A BMP code point that is not half of a surrogate pair, as four hex digits. */
const BMP = `([0-9a-cA-CefEF] ${HEX} ${HEX} ${HEX} | [dD] [0-7] ${HEX} ${HEX})`;
const PYTHON_ESCAPE = `"\\\\" ([\\\\'"abfnrtv] | [0-7] [0-7]? [0-7]? | "x" ${HEX} ${HEX} | "u" ${BMP} | "U" ("0000" ${BMP} | "000" [1-9a-fA-F] ${HEX} ${HEX} ${HEX} ${HEX} | "0010" ${HEX} ${HEX} ${HEX} ${HEX}) | [^\\n\\r\\\\'"abfnrtv0-7xuUN])`;
const PADDING = charSet(' \t\n');

interface Syntax {
  /** Any string, as rules: `name` the whole string; `follow` what may come after it (a lookahead). */
  any(name: string, follow: string): string[];
  open: string;
  close: string;
  /** Characters written as themselves inside a constrained string. */
  raw: CharSet;
  /** Characters that may not stand first or last (whitespace the grammar allows around an XML value). */
  edge?: CharSet;
  /** How a character outside `raw` is written. */
  escapes: ReadonlyMap<number, string>;
  /** The literal text of a string value, delimiters included, or undefined when it cannot be written. */
  literal(value: string): string | undefined;
}

const JSON_SPECIAL = charSet('"\\\r\n');
const PYTHON_SPECIAL = JSON_SPECIAL;

const SYNTAXES: Record<ArgumentSyntax, Syntax> = {
  json: {
    any: (name, follow) => [
      `${name} ::= "\\"" ${name}_rest`,
      `${name}_rest ::= ("\\"" | [^"\\\\\\r\\n] ${name}_rest | "\\\\" (["\\\\/bfnrt] | "u" ${BMP}) ${name}_rest) (= ${follow})`,
    ],
    open: '"\\""',
    close: '"\\""',
    raw: complement(JSON_SPECIAL),
    escapes: escapes({ '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r' }),
    literal: (value) => ebnfLiteral(JSON.stringify(value)),
  },
  python: {
    // Double quotes only, as Gemma's examples and our write-back have them: each quote style costs a
    // compile of its own on a 256k vocabulary. The readers take single quotes too.
    any: (name, follow) => [
      `${name} ::= "\\"" ${name}_rest`,
      `${name}_rest ::= ("\\"" | [^"\\\\\\r\\n] ${name}_rest | ${PYTHON_ESCAPE} ${name}_rest) (= ${follow})`,
    ],
    open: '"\\""',
    close: '"\\""',
    raw: complement(PYTHON_SPECIAL),
    escapes: escapes({ '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r' }),
    // JSON's escapes are a subset of Python's, with the same meaning.
    literal: (value) => ebnfLiteral(JSON.stringify(value)),
  },
  gemma4: {
    any: (name, follow) => [
      `${name} ::= "<|\\"|>" ${name}_rest`,
      `${name}_rest ::= ("<|\\"|>" | [^<] ${name}_rest | "<" [^|<] ${name}_rest) (= ${follow})`,
    ],
    open: '"<|\\"|>"',
    close: '"<|\\"|>"',
    raw: complement(charSet('<')),
    escapes: new Map(),
    literal: (value) => (value.includes('<|"|>') ? undefined : ebnfLiteral(`<|"|>${value}<|"|>`)),
  },
  xml: {
    any: xmlText,
    open: '""',
    close: '""',
    raw: complement(charSet('<')),
    edge: PADDING,
    escapes: new Map(),
    literal: (value) =>
      /^[ \t\n]|[ \t\n]$/.test(value) || value.includes('</parameter>') ? undefined : ebnfLiteral(value),
  },
};

function escapes(table: Record<string, string>): Map<number, string> {
  return new Map(Object.entries(table).map(([ch, text]) => [ch.codePointAt(0)!, ebnfLiteral(text)]));
}

/**
 * Qwen3.5's bare text: no whitespace first or last, and "<" only before a
 * character other than "/" and "<". Written right-linear: `_ends` after a
 * character other than whitespace (the text may end there), `_goes_on` after
 * whitespace (it may not).
 */
function xmlText(name: string, follow: string): string[] {
  const steps = (self: string) =>
    `[^< \\t\\n] ${name}_ends | "<" [^/< \\t\\n] ${name}_ends | "<" [ \\t\\n] ${name}_goes_on${self}`;
  return [
    `${name} ::= ("" | ${steps('')}) (= ${follow})`,
    `${name}_ends ::= ("" | ${steps(` | [ \\t\\n] ${name}_goes_on`)}) (= ${follow})`,
    `${name}_goes_on ::= ${steps(` | [ \\t\\n] ${name}_goes_on`)}`,
  ];
}

/**
 * Any string of the syntax, as EBNF rules: `name` is the string. The rules
 * are right-recursive with `follow` as a lookahead (what may come after the
 * string where it is used): without it, every token that holds a quote is
 * undecided when the grammar is compiled, and xgrammar checks each of them
 * again at every step inside a string (milliseconds a token, measured).
 */
export function anyStringRules(syntax: ArgumentSyntax, name: string, follow: string): string[] {
  return SYNTAXES[syntax].any(name, follow);
}

export function stringLiteral(syntax: ArgumentSyntax, value: string): string | undefined {
  return SYNTAXES[syntax].literal(value);
}

export function delimiters(syntax: ArgumentSyntax): { open: string; close: string } {
  return { open: SYNTAXES[syntax].open, close: SYNTAXES[syntax].close };
}

/**
 * One character of `set` inside a constrained string: the class of those
 * written as themselves, or-ed with the escapes of the others. `edge`: it is
 * the value's first or last character. Undefined when the syntax can write none.
 */
export function oneOf(syntax: ArgumentSyntax, set: CharSet, edge = false): string | undefined {
  const { raw, escapes, edge: notAtEdge } = SYNTAXES[syntax];
  let plain = intersect(set, raw);
  if (edge && notAtEdge) plain = subtract(plain, notAtEdge);
  const options = isEmpty(plain) ? [] : [ebnfClass(plain)];
  for (const [codePoint, text] of escapes) if (hasChar(set, codePoint)) options.push(text);
  if (options.length === 0) return undefined;
  return options.length === 1 ? options[0] : `(${options.join(' | ')})`;
}

/**
 * One character of a pattern's class or `.`. Where the value may not start or
 * end with whitespace (xml), a class never holds any: a pattern string keeps
 * only the spaces it spells out.
 */
export function patternChar(syntax: ArgumentSyntax, set: CharSet): string | undefined {
  const spelled = set.length === 1 && set[0][0] === set[0][1];
  return oneOf(syntax, set, !spelled);
}
