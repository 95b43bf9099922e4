/**
 * Llama 3.2 (1B, 3B): a bare JSON object `{"name": …, "parameters": {…}}`,
 * optionally after `<|python_tag|>`; the pythonic list `[f(a=1)]` is its
 * other trained form. Prompt after the Llama 3.1/3.2 chat template's
 * system-message variant (tools_in_user_message false), tools first.
 *
 * The readers here also find such JSON with prose around it, several joined
 * by ";", and a pythonic list, in any family's output.
 */
import type { CallReader } from './call-reader';
import { argumentsSchema, functionEntry } from './grammar-schema';
import { readLiteral, skipWhitespace } from './literal';
import { pythonJson } from './python-json';
import { callsOfValue, CUT_OFF, looksLikeCall, readJsonValues, readPythonicCalls, type Read } from './read-calls';
import { tag, triggeredTags } from './structural-tag';
import type { ToolFormat } from './tool-format';

export const llama3Json: ToolFormat = {
  name: 'llama3-json',
  summary: '{"name", "parameters"} (optionally after <|python_tag|>)',
  example: '{"name": "<tool name>", "parameters": {<arguments as JSON>}}',
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
    return triggeredTags(
      ['{"name": '],
      step.tools.map((tool) =>
        tag(
          `{"name": ${JSON.stringify(tool.name)}, "parameters": `,
          { type: 'json_schema', json_schema: argumentsSchema(tool, step) },
          '}',
        ),
      ),
      step.required,
    );
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

/** Everything after `<|python_tag|>`: JSON calls (";"-joined) or pythonic calls. */
export const pythonTagReader: CallReader = {
  markers: ['<|python_tag|>'],
  read(text, start, marker) {
    const i = skipWhitespace(text, start + marker.length);
    if (i >= text.length) return { end: text.length, errors: [{ raw: text.slice(start), why: CUT_OFF }] };
    if (text[i] === '{' || (text[i] === '[' && /^\[\s*\{/.test(text.slice(i, i + 40))))
      return readJsonValues(text, i, undefined);
    const pythonic = readPythonicCalls(text, i);
    if (pythonic.calls.length || pythonic.errors.length) return pythonic;
    return {
      end: text.length,
      errors: [{ raw: text.slice(start), why: 'it is neither JSON nor a call such as name(argument="value")' }],
    };
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
  read(text, start) {
    const value = readLiteral(text, start);
    if (!value.ok) {
      if (value.cutOff) return { end: text.length, errors: [{ raw: text.slice(start), why: CUT_OFF }] };
      return { end: Math.max(value.end, start + 1), prose: true };
    }
    if (!looksLikeCall(value.value)) return { end: value.end, prose: true };
    const out: Read = { end: value.end, calls: [], errors: [] };
    callsOfValue(value.value, text.slice(start, value.end), out);
    return out;
  },
};

/**
 * `[get_time(), set_volume(level=3)]`: read when the list is complete and names
 * a declared tool, so prose in brackets stays text; a broken sibling is answered
 * as unreadable and the good calls still run.
 */
export const pythonicListReader: CallReader = {
  patterns: ['\\[\\s*[A-Za-z_][\\w.]*\\s*\\('],
  partial: /\[\s*[A-Za-z_][\w.]*\s*$/,
  read(text, start, _marker, context) {
    const read = readPythonicCalls(text, start);
    if (read.errors.length && read.end >= text.length && !read.complete) return read; // cut off inside the list
    const names = [...read.calls, ...read.errors].map((call) => call.name);
    const declared = names.some((name) => name !== undefined && context.tools.has(name));
    // Not a call after all: the whole span stays text, so markers inside it are not read again.
    if (!declared || !read.complete) return { end: Math.max(read.end, start + 1), prose: true };
    return read;
  },
};
