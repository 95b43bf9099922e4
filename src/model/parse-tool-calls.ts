/**
 * Reads tool calls out of a model's own text, in the formats real models
 * emit: Hermes and Qwen 2.5 (`<tool_call>{…}</tool_call>`, several per turn),
 * Llama 3.1 (`<|python_tag|>` with JSON or `fn.call(a=1)`, and
 * `<function=name>{…}</function>`), Mistral (`[TOOL_CALLS] […]` and
 * `[TOOL_CALLS]name[ARGS]{…}`), bare or fenced JSON, and our grammar's
 * fallback `{"answer": …}`. Near-JSON is repaired.
 *
 * Only the model's output goes through here: user text and tool results are
 * escaped before the model reads them (escape.ts) and are never parsed, so a
 * tool result cannot create a call. Arguments are checked against the tool's
 * schema later, by the loop; here a call only needs a known name and an object.
 */
import type { ModelToolCall } from './engine';
import { parseLenientJson } from './repair-json';

export interface ToolCallError {
  id?: string;
  name?: string;
  /** The text the model wrote for the call, as it wrote it. */
  raw: string;
  /** What went wrong and how to write the call instead; the model reads it. */
  message: string;
}

export interface ParsedToolCalls {
  /** The text meant for the person, with the call markup removed. */
  text: string;
  calls: ModelToolCall[];
  errors: ToolCallError[];
}

export interface ParseToolCallsOptions {
  /** The tools offered in this step; a call to any other name is an error. Absent: any name is accepted. */
  toolNames?: readonly string[];
}

export const CALL_FORMAT_HINT = 'Write each call as <tool_call>{"name": "<tool name>", "arguments": {…}}</tool_call>.';

/** Chat-template tokens that end a turn; a model may leave them in its text. */
const END_TOKENS = /(<\|eom_id\|>|<\|eot_id\|>|<\|im_end\|>|<\|end\|>|<\|endoftext\|>|<\/s>|<end_of_turn>)\s*$/;

export function parseToolCalls(output: string, options: ParseToolCallsOptions = {}): ParsedToolCalls {
  const result: ParsedToolCalls = { text: '', calls: [], errors: [] };
  let text = output;
  while (END_TOKENS.test(text)) text = text.replace(END_TOKENS, '');

  const take = (raw: string, values: unknown[]) => {
    for (const value of values) addCall(result, value, raw, options);
  };

  // Hermes / Qwen 2.5: each call in its own tag; a last tag may be left open when the model stopped.
  text = text.replace(/<tool_call>([\s\S]*?)(?:<\/tool_call>|$)/g, (raw, body: string) => {
    readJsonCalls(result, raw, body, options, take);
    return '';
  });

  // Llama 3.1 custom tools: <function=name>{"a": 1}</function>
  text = text.replace(/<function=([\w.-]+)>([\s\S]*?)(?:<\/function>|$)/g, (raw, name: string, body: string) => {
    const args = body.trim() ? parseLenientJson(body) : { ok: true as const, value: {}, repaired: false };
    if (!args.ok) result.errors.push(unreadable(raw, `its arguments are not JSON (${args.error})`, name));
    else addCall(result, { name, arguments: args.value }, raw, options);
    return '';
  });

  // Llama 3.1 built-in and JSON tools: everything after <|python_tag|> is calls.
  text = text.replace(/<\|python_tag\|>([\s\S]*)$/, (raw, body: string) => {
    const trimmed = body.trim();
    const pythonic = /^\[?\s*[A-Za-z_][\w.-]*\s*\(/.test(trimmed);
    if (!pythonic && (trimmed.startsWith('{') || trimmed.startsWith('[')))
      readJsonCalls(result, raw, trimmed, options, take);
    else readPythonCalls(result, raw, trimmed, options);
    return '';
  });

  // Mistral: [TOOL_CALLS] [{…}, …]  or (newer tokenizers) [TOOL_CALLS]name[ARGS]{…}, repeated.
  text = text.replace(/\[TOOL_CALLS\]([\s\S]*)$/, (raw, body: string) => {
    readMistralCalls(result, raw, body, options, take);
    return '';
  });

  // Fenced JSON that holds a call; other fenced code stays text.
  text = text.replace(/```(?:json|tool_call|tool_code|javascript|js)?[ \t]*\n?([\s\S]*?)```/g, (raw, body: string) => {
    const parsed = parseLenientJson(body);
    if (!parsed.ok || !looksLikeCalls(parsed.value)) return raw;
    take(raw, asList(parsed.value));
    return '';
  });

  // Bare JSON: the whole answer is a call, several calls, or our grammar's {"answer": …}.
  const trimmed = text.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    const parsed = parseLenientJson(trimmed);
    if (parsed.ok && isAnswer(parsed.value)) text = parsed.value.answer;
    else if (parsed.ok && looksLikeCalls(parsed.value)) {
      take(trimmed, asList(parsed.value));
      text = '';
    } else if (!parsed.ok && /^[[{]\s*"?(name|function|tool_calls)"?\s*:/.test(trimmed.replace(/^\[\s*/, ''))) {
      result.errors.push(unreadable(trimmed, `it is not valid JSON (${parsed.error})`));
      text = '';
    }
  }

  result.text = text.trim();
  return result;
}

/** Builds the message the model reads when it named a tool that does not exist. */
export function unknownToolMessage(name: string, toolNames: readonly string[]): string {
  const available = toolNames.length
    ? `The tools you can call are: ${toolNames.join(', ')}. Call one of them, or answer in plain text.`
    : 'No tools are available in this step: answer in plain text.';
  return `There is no tool named "${name}". ${available}`;
}

type Take = (raw: string, values: unknown[]) => void;

function readJsonCalls(result: ParsedToolCalls, raw: string, body: string, options: ParseToolCallsOptions, take: Take) {
  const pieces = splitJsonValues(body);
  if (pieces.length === 0) {
    result.errors.push(unreadable(raw, 'it holds no JSON object'));
    return;
  }
  for (const piece of pieces) {
    const parsed = parseLenientJson(piece);
    if (!parsed.ok) result.errors.push(unreadable(raw, `it is not valid JSON (${parsed.error})`, nameIn(piece)));
    else if (!looksLikeCalls(parsed.value, { inMarkup: true }))
      result.errors.push(unreadable(raw, 'it has no "name" field'));
    else take(raw, asList(parsed.value));
  }
  void options;
}

function readMistralCalls(
  result: ParsedToolCalls,
  raw: string,
  body: string,
  options: ParseToolCallsOptions,
  take: Take,
) {
  const trimmed = body.trim();
  if (trimmed.startsWith('[') || trimmed.startsWith('{')) {
    readJsonCalls(result, raw, trimmed, options, take);
    return;
  }
  const pattern = /([\w.-]+)(?:\[CALL_ID\]([\w-]+))?\[ARGS\]/g;
  const heads = [...trimmed.matchAll(pattern)];
  if (heads.length === 0) {
    result.errors.push(unreadable(raw, 'no call follows [TOOL_CALLS]'));
    return;
  }
  heads.forEach((head, index) => {
    const start = head.index! + head[0].length;
    const end = index + 1 < heads.length ? heads[index + 1].index! : trimmed.length;
    const argsText = trimmed.slice(start, end).replace(/\[TOOL_CALLS\]\s*$/, '');
    const args = parseLenientJson(argsText);
    const callRaw = trimmed.slice(head.index!, end);
    if (!args.ok) result.errors.push(unreadable(callRaw, `its arguments are not JSON (${args.error})`, head[1]));
    else addCall(result, { name: head[1], arguments: args.value, id: head[2] }, callRaw, options);
  });
}

/** `brave_search.call(query="x")`, `get_weather(city='Paris')` or a list of them `[f(a=1), g()]`. */
function readPythonCalls(result: ParsedToolCalls, raw: string, body: string, options: ParseToolCallsOptions) {
  const source = body.replace(/^\[\s*/, '').replace(/\s*\]$/, '');
  const heads = /([A-Za-z_][\w-]*)(?:\.call)?\s*\(/g;
  let found = false;
  let match: RegExpExecArray | null;
  while ((match = heads.exec(source))) {
    found = true;
    const open = match.index + match[0].length;
    const close = findClosingParen(source, open);
    const inside = source.slice(open, close === -1 ? source.length : close);
    const callRaw = source.slice(match.index, close === -1 ? source.length : close + 1);
    const args = parseKeywordArguments(inside);
    if ('error' in args) result.errors.push(unreadable(callRaw, args.error, match[1]));
    else addCall(result, { name: match[1], arguments: args.value }, callRaw, options);
    if (close === -1) break;
    heads.lastIndex = close + 1;
  }
  if (!found) result.errors.push(unreadable(raw, 'it is neither JSON nor a function call such as name(arg="value")'));
}

function parseKeywordArguments(inside: string): { value: Record<string, unknown> } | { error: string } {
  const value: Record<string, unknown> = {};
  for (const part of splitTopLevel(inside, ',')) {
    if (!part.trim()) continue;
    const eq = part.indexOf('=');
    if (eq === -1) return { error: `the argument "${part.trim()}" has no name; write name=value` };
    const key = part.slice(0, eq).trim();
    const parsed = parseLenientJson(part.slice(eq + 1));
    if (!parsed.ok) return { error: `the value of "${key}" is not readable (${parsed.error})` };
    value[key] = parsed.value;
  }
  return { value };
}

function addCall(result: ParsedToolCalls, value: unknown, raw: string, options: ParseToolCallsOptions) {
  const shape = callShape(value);
  if (!shape) {
    result.errors.push(unreadable(raw, 'it has no "name" field'));
    return;
  }
  const { name, id } = shape;
  let args = shape.args;
  if (typeof args === 'string') {
    // OpenAI-style arguments are a JSON string.
    const parsed = args.trim() ? parseLenientJson(args) : { ok: true as const, value: {}, repaired: false };
    if (!parsed.ok) {
      result.errors.push({
        id,
        name,
        raw,
        message: `The arguments of your call to "${name}" are not valid JSON (${parsed.error}). ${CALL_FORMAT_HINT}`,
      });
      return;
    }
    args = parsed.value;
  }
  if (args === undefined || args === null) args = {};
  if (typeof args !== 'object' || Array.isArray(args)) {
    result.errors.push({
      id,
      name,
      raw,
      message: `The arguments of your call to "${name}" must be a JSON object of named arguments. ${CALL_FORMAT_HINT}`,
    });
    return;
  }
  if (options.toolNames && !options.toolNames.includes(name)) {
    result.errors.push({ id, name, raw, message: unknownToolMessage(name, options.toolNames) });
    return;
  }
  result.calls.push(id === undefined ? { name, args } : { id, name, args });
}

function callShape(value: unknown): { name: string; args: unknown; id?: string } | undefined {
  if (!isRecord(value)) return undefined;
  const fn = isRecord(value.function) ? value.function : value;
  if (typeof fn.name !== 'string' || !fn.name) return undefined;
  const args = fn.arguments ?? fn.parameters ?? fn.args ?? fn.input;
  const id = typeof value.id === 'string' && value.id ? value.id : undefined;
  return { name: fn.name, args, id };
}

/**
 * Inside call markup any object with a name is a call. Bare JSON must also
 * carry arguments, so that an answer such as {"name": "Ada"} stays text.
 */
function looksLikeCalls(value: unknown, { inMarkup = false } = {}): boolean {
  if (Array.isArray(value)) return value.length > 0 && value.every((item) => looksLikeCalls(item, { inMarkup }));
  if (isRecord(value) && Array.isArray(value.tool_calls)) return true;
  if (!isRecord(value) || callShape(value) === undefined) return false;
  return inMarkup || 'arguments' in value || 'parameters' in value || 'function' in value;
}

function asList(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (isRecord(value) && Array.isArray(value.tool_calls)) return value.tool_calls;
  return [value];
}

function isAnswer(value: unknown): value is { answer: string } {
  return isRecord(value) && typeof value.answer === 'string' && Object.keys(value).length === 1;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function unreadable(raw: string, why: string, name?: string): ToolCallError {
  return { name, raw, message: `Your tool call could not be read: ${why}. ${CALL_FORMAT_HINT}` };
}

function nameIn(text: string): string | undefined {
  return /"name"\s*:\s*"([^"]+)"/.exec(text)?.[1];
}

/** Top-level JSON values in a text (`{…}{…}`, `{…}; {…}`, one per line); an unclosed last one runs to the end. */
export function splitJsonValues(text: string): string[] {
  const values: string[] = [];
  let depth = 0;
  let start = -1;
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quote) {
      if (ch === '\\') i += 1;
      else if (ch === quote) quote = null;
      continue;
    }
    if (ch === '"' || (ch === "'" && depth > 0)) quote = ch;
    else if (ch === '{' || ch === '[') {
      if (depth === 0) start = i;
      depth += 1;
    } else if ((ch === '}' || ch === ']') && depth > 0) {
      depth -= 1;
      if (depth === 0) {
        values.push(text.slice(start, i + 1));
        start = -1;
      }
    }
  }
  if (start !== -1) values.push(text.slice(start));
  return values;
}

function splitTopLevel(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let current = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quote) {
      current += ch;
      if (ch === '\\' && i + 1 < text.length) current += text[++i];
      else if (ch === quote) quote = null;
      continue;
    }
    if (ch === '"' || ch === "'") quote = ch;
    else if ('([{'.includes(ch)) depth += 1;
    else if (')]}'.includes(ch)) depth -= 1;
    if (ch === separator && depth === 0) {
      parts.push(current);
      current = '';
    } else current += ch;
  }
  parts.push(current);
  return parts;
}

function findClosingParen(text: string, from: number): number {
  let depth = 1;
  let quote: string | null = null;
  for (let i = from; i < text.length; i++) {
    const ch = text[i];
    if (quote) {
      if (ch === '\\') i += 1;
      else if (ch === quote) quote = null;
      continue;
    }
    if (ch === '"' || ch === "'") quote = ch;
    else if ('([{'.includes(ch)) depth += 1;
    else if (')]}'.includes(ch)) {
      depth -= 1;
      if (depth === 0) return i;
    }
  }
  return -1;
}
