/**
 * Llama 3.2 (1B, 3B): a bare JSON object `{"name": …, "parameters": {…}}`,
 * optionally after `<|python_tag|>`; the pythonic list `[f(a=1)]` is its
 * other trained form. Prompt after the Llama 3.1/3.2 chat template's
 * system-message variant (tools_in_user_message false), tools first.
 *
 * The readers here also find such JSON with prose around it, several joined
 * by ";", and a pythonic list, in any family's output.
 */
import type { CallReader, ReadContext } from '../readers/call-reader';
import { functionEntry } from '../grammar/grammar-schema';
import { jsonCallTags } from './hermes';
import { readLiteral, skipWhitespace } from '../readers/literal';
import { pythonJson } from './python-json';
import {
  callsOfValue,
  CUT_OFF,
  looksLikeCall,
  nameIn,
  readJsonValues,
  readPythonicCalls,
  type Read,
} from '../readers/read-calls';
import { triggeredTags } from '../grammar/structural-tag';
import type { ToolFormat } from './tool-format';

export const llama3Json: ToolFormat = {
  name: 'llama3-json',
  summary: '{"name", "parameters"} (optionally after <|python_tag|>)',
  example: '{"name": "<tool name>", "parameters": {<arguments as JSON>}}',
  argumentSyntax: 'json',
  toolsFirst: true,
  describeTools(tools) {
    if (tools.length === 0) return '';
    return (
      'You have access to the following functions. To call a function, please respond with JSON for a function call.' +
      'Respond in the format {"name": function name, "parameters": dictionary of argument name and its value}.' +
      'Do not use variables.\n\n' +
      tools.map((tool) => `${JSON.stringify(functionEntry(tool), null, 4)}\n\n`).join('')
    ).trimEnd();
  },
  grammar(step) {
    return triggeredTags(['{"name": '], jsonCallTags(step, '{"name": ', '}', 'parameters'), step.required);
  },
  writeTurn(text, calls) {
    const written = calls.map(
      (call) => `{"name": ${JSON.stringify(call.name)}, "parameters": ${pythonJson(call.args ?? {})}}`,
    );
    return [text, ...written].filter(Boolean).join('\n');
  },
  writeResults(results) {
    return results.map((result) => result.content).join('\n');
  },
};

/**
 * Everything after `<|python_tag|>`: JSON calls (";"-joined) or pythonic calls. When neither follows,
 * the tag was prose (Llama 3.2's grammar leaves it free), and a call after it is read on its own.
 */
export const pythonTagReader: CallReader = {
  markers: ['<|python_tag|>'],
  read(text, start, marker, context) {
    const i = skipWhitespace(text, start + marker.length);
    if (i >= text.length)
      return context.finishReason === 'length'
        ? { end: text.length, errors: [{ raw: text.slice(start), why: CUT_OFF }] }
        : { end: text.length, prose: true };
    const json = /^(?:\[\s*)?\{(\s*(?:"|$))?/.exec(text.slice(i, i + 64));
    // Only an object whose first key has begun (or is still to come) is a call attempt; `{@…` is prose.
    if (json)
      return json[1] === undefined ? { end: start + marker.length, prose: true } : readJsonValues(text, i, undefined);
    const pythonic = readPythonicCalls(text, i, context.tools);
    if (pythonic.calls.length || namesDeclaredTool(pythonic, context)) return pythonic;
    return { end: start + marker.length, prose: true };
  },
};

/**
 * JSON that claims to be a call, wherever it stands: `{"name": …, "parameters"|"arguments": …}`,
 * a list of them, or `{"tool_calls": […]}`. Other JSON stays text.
 */
export const bareJsonReader: CallReader = {
  patterns: [
    '\\[\\s*\\{\\s*"name"\\s*:',
    '\\{\\s*"(?:name|function|tool_calls)"\\s*:',
    '\\{\\s*"(?:arguments|parameters)"\\s*:\\s*\\{',
  ],
  partial: /(?:\[\s*)?\{\s*(?:"(?:n(?:a(?:m(?:e"?)?)?)?)?)?$/,
  read(text, start, _marker, context) {
    const value = readLiteral(text, start);
    if (!value.ok) {
      if (value.cutOff && cutOffCall(text, start, context))
        return {
          end: text.length,
          errors: [{ name: nameIn(text, start, text.length), raw: text.slice(start), why: CUT_OFF }],
        };
      return { end: value.cutOff ? text.length : Math.max(value.end, start + 1), prose: true };
    }
    if (!looksLikeCall(value.value)) return { end: value.end, prose: true };
    const out: Read = { end: value.end, calls: [], errors: [] };
    callsOfValue(value.value, text.slice(start, value.end), out);
    return out;
  },
};

/**
 * `[get_time(), set_volume(level=3)]`: read when it names a declared tool, so
 * prose in brackets ("see [note(1)]") stays text; a broken sibling is answered
 * as unreadable and the good calls still run, and a list that names a
 * declared tool but is cut off is answered as cut off.
 */
export const pythonicListReader: CallReader = {
  patterns: ['\\[\\s*[A-Za-z_][\\w.]*\\s*\\('],
  partial: /\[\s*[A-Za-z_][\w.]*\s*$/,
  read(text, start, _marker, context) {
    const read = readPythonicCalls(text, start, context.tools);
    if (!namesDeclaredTool(read, context)) return { end: start + 1, prose: true };
    if (read.errors.length && read.end >= text.length && !read.complete) return read; // cut off inside the list
    if (!read.complete) return { end: start + 1, prose: true };
    return read;
  },
};

/**
 * Whether JSON left open at the end of the output was a call: it names a tool (declared or not: the
 * model hears either way), or (cut off at the token limit) it was still writing one, its name
 * unfinished or not begun. JSON-looking prose
 * the model ended by itself is text.
 */
function cutOffCall(text: string, start: number, context: ReadContext): boolean {
  const name = /"name"\s*:\s*"((?:[^"\\]|\\.)*)("?)/.exec(text.slice(start, start + 200));
  if (name?.[2]) return true;
  if (context.finishReason !== 'length') return false;
  if (!name) return /^(?:\[\s*)?\{\s*"name"\s*:\s*$/.test(text.slice(start));
  return !name[2] && [...context.tools.keys()].some((tool) => tool.startsWith(name[1]));
}

/** Whether pythonic calls name a tool the model was given: otherwise they are prose that looks like code. */
function namesDeclaredTool(read: Read, context: ReadContext): boolean {
  return [...read.calls, ...read.errors].some((call) => call.name !== undefined && context.tools.has(call.name));
}
