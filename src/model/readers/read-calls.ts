/**
 * Pieces the readers share: calls out of JSON values (one, a list, or
 * several in a row) and pythonic calls.
 */
import type { FoundCall, FoundError } from './call-reader';
import { readLiteral, skipWhitespace, type LiteralOptions } from './literal';
import { withoutNoneDefaults } from './none-defaults';
import type { ToolDeclaration } from '../../tools/declaration';

export interface Read {
  end: number;
  calls: FoundCall[];
  errors: FoundError[];
}

const CUT_OFF = 'it stops before its end (the output was cut off)';

/** `{"name", "arguments"}`, OpenAI's `{"function": {"name", "arguments"}}`, Llama's `"parameters"`. */
function callShape(value: unknown): { name: string; args: unknown; id?: string } | undefined {
  if (!isRecord(value)) return undefined;
  const fn = isRecord(value.function) ? value.function : value;
  const name = typeof fn.name === 'string' ? fn.name : typeof value.function === 'string' ? value.function : undefined;
  if (!name) return undefined;
  const args = fn.arguments ?? fn.parameters ?? fn.args ?? fn.input ?? value.arguments ?? value.parameters;
  const id = typeof value.id === 'string' && value.id ? value.id : undefined;
  return id === undefined ? { name, args } : { name, args, id };
}

/** Whether a value outside call markup claims to be a call: a name and arguments, a list of such, or `tool_calls`. */
export function looksLikeCall(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0 && value.every(looksLikeCall);
  if (isRecord(value) && Array.isArray(value.tool_calls)) return true;
  if (!isRecord(value) || !callShape(value)) return false;
  return 'arguments' in value || 'parameters' in value || isRecord(value.function);
}

/** The calls one JSON value holds: a call, a list of calls (empty: none), or `{"tool_calls": […]}`. */
export function callsOfValue(value: unknown, raw: string, out: Read): void {
  const list = Array.isArray(value)
    ? value
    : isRecord(value) && Array.isArray(value.tool_calls)
      ? value.tool_calls
      : [value];
  for (const item of list) {
    const shape = callShape(item);
    if (shape) out.calls.push({ ...shape, raw });
    else out.errors.push({ raw, why: 'it has no "name" field naming the tool' });
  }
}

/**
 * JSON values one after another from `at` (separated by whitespace, "," or
 * ";"), up to `close` when given. `closed` says whether `close` was found;
 * values before an unreadable one still count.
 */
export function readJsonValues(
  text: string,
  at: number,
  close: string | undefined,
  options: LiteralOptions = {},
): Read & { closed: boolean } {
  const out: Read & { closed: boolean } = { end: at, calls: [], errors: [], closed: false };
  let i = skipWhitespace(text, at);
  for (;;) {
    if (close !== undefined && text.startsWith(close, i)) {
      out.end = i + close.length;
      out.closed = true;
      return out;
    }
    if (i >= text.length || !opensJsonCall(text, i)) {
      out.end = i;
      return out;
    }
    const value = readLiteral(text, i, options);
    if (!value.ok) {
      const stop = close === undefined || value.cutOff ? -1 : text.indexOf(close, value.end);
      const end = value.cutOff || stop === -1 ? text.length : stop + close!.length;
      out.errors.push({
        raw: text.slice(i, end),
        why: value.cutOff ? CUT_OFF : `it is not valid JSON (${value.why})`,
        name: nameIn(text, i, end),
      });
      out.end = end;
      out.closed = stop !== -1;
      return out;
    }
    callsOfValue(value.value, text.slice(i, value.end), out);
    i = skipWhitespace(text, value.end);
    while (i < text.length && (text[i] === ',' || text[i] === ';')) i = skipWhitespace(text, i + 1);
  }
}

/** A JSON object, or a list of objects (not `[/TOOL_CALLS]` or other bracketed text). */
function opensJsonCall(text: string, at: number): boolean {
  if (text[at] === '{') return true;
  if (text[at] !== '[') return false;
  const next = text[skipWhitespace(text, at + 1)];
  return next === '{' || next === ']' || next === undefined;
}

/**
 * `name(a=1, b='x')`, `name.call(a=1)`, several separated by commas, optionally in `[…]`. An optional
 * argument passed as None is left out, as Python's default (none-defaults.ts); `tools` says which are optional.
 */
export function readPythonicCalls(
  text: string,
  at: number,
  tools: ReadonlyMap<string, ToolDeclaration>,
): Read & { bracketed: boolean; complete: boolean } {
  const out: Read & { bracketed: boolean; complete: boolean } = {
    end: at,
    calls: [],
    errors: [],
    bracketed: false,
    complete: false,
  };
  let i = skipWhitespace(text, at);
  if (text[i] === '[') {
    out.bracketed = true;
    i = skipWhitespace(text, i + 1);
  }
  const head = /([A-Za-z_][\w.-]*)\s*\(/y;
  for (;;) {
    head.lastIndex = i;
    const match = head.exec(text);
    if (!match) break;
    const callStart = i;
    const name = match[1].replace(/\.call$/, '');
    const args = readKeywordArguments(text, i + match[0].length);
    if ('why' in args) {
      out.errors.push({ name, raw: text.slice(callStart, args.end), why: args.why });
      if (args.why === CUT_OFF) {
        out.end = args.end;
        return out;
      }
    } else
      out.calls.push({
        name,
        args: withoutNoneDefaults(args.value, tools.get(name)),
        raw: text.slice(callStart, args.end),
      });
    i = skipWhitespace(text, args.end);
    out.end = i;
    if (text[i] === ',' || text[i] === ';') i = skipWhitespace(text, i + 1);
    else break;
  }
  if (out.bracketed) {
    if (text[i] === ']') {
      out.end = i + 1;
      out.complete = true;
    } else if (i >= text.length && out.calls.length) {
      out.errors.push({ raw: text.slice(at), why: CUT_OFF });
      out.calls = [];
      out.end = text.length;
    }
  } else out.complete = out.calls.length > 0;
  return out;
}

function readKeywordArguments(
  text: string,
  at: number,
): { value: Record<string, unknown>; end: number } | { why: string; end: number } {
  const value: Record<string, unknown> = {};
  const key = /([A-Za-z_]\w*)\s*=(?!=)/y;
  let i = skipWhitespace(text, at);
  for (;;) {
    if (i >= text.length) return { why: CUT_OFF, end: text.length };
    if (text[i] === ')') return { value, end: i + 1 };
    key.lastIndex = i;
    const match = key.exec(text);
    if (!match) return { why: `its arguments must be named, as name(argument="value")`, end: closingParen(text, i) };
    const item = readLiteral(text, i + match[0].length, { python: true });
    if (!item.ok)
      return {
        why: item.cutOff ? CUT_OFF : `the value of "${match[1]}" is not readable (${item.why})`,
        end: item.cutOff ? text.length : closingParen(text, item.end),
      };
    value[match[1]] = item.value;
    i = skipWhitespace(text, item.end);
    if (text[i] === ',') i = skipWhitespace(text, i + 1);
    else if (i < text.length && text[i] !== ')')
      return { why: `expected "," or ")" at character ${i}`, end: closingParen(text, i) };
  }
}

function closingParen(text: string, from: number): number {
  const at = text.indexOf(')', from);
  return at === -1 ? text.length : at + 1;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The tool a broken call meant, when its name is still legible. */
export function nameIn(text: string, from: number, to: number): string | undefined {
  const match = /"name"\s*:\s*"([^"]{1,64})"/.exec(text.slice(from, Math.min(to, from + 200)));
  return match?.[1];
}

export { CUT_OFF };
