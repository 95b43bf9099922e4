/**
 * Phi-4-mini: `functools[{"name": …, "arguments": {…}}, …]`. The tools go in
 * the system message between `<|tool|>` and `<|/tool|>`, as Phi-4-mini's chat
 * template writes them (microsoft/Phi-4-mini-instruct).
 */
import type { CallReader } from '../readers/call-reader';
import { toolEntry } from '../grammar/grammar-schema';
import { callListContent } from '../grammar/call-list';
import { readLiteral, skipWhitespace } from '../readers/literal';
import { pythonJson } from './python-json';
import { callsOfValue, CUT_OFF, type Read } from '../readers/read-calls';
import { tag, triggeredTags } from '../grammar/structural-tag';
import type { ToolFormat } from './tool-format';

export const phi4Functools: ToolFormat = {
  name: 'phi4-functools',
  summary: 'functools[{"name", "arguments"}, …]',
  example: 'functools[{"name": "<tool name>", "arguments": {<arguments as JSON>}}]',
  argumentSyntax: 'json',
  describeTools(tools) {
    if (tools.length === 0) return '';
    const list = tools.map(toolEntry);
    return `<|tool|>${JSON.stringify(list)}<|/tool|>`;
  },
  grammar(step) {
    return triggeredTags(['functools'], [tag('functools', callListContent(step), '')], step.required);
  },
  writeTurn(text, calls) {
    if (calls.length === 0) return text;
    const list = calls.map((call) => ({ name: call.name, arguments: call.args ?? {} }));
    return [text, `functools${pythonJson(list)}`].filter(Boolean).join('\n');
  },
  writeResults(results) {
    return results.map((result) => result.content).join('\n');
  },
};

export const functoolsReader: CallReader = {
  markers: ['functools'],
  read(text, start, marker) {
    const i = skipWhitespace(text, start + marker.length);
    if (text[i] !== '[') {
      if (i >= text.length) return { end: text.length, errors: [{ raw: text.slice(start), why: CUT_OFF }] };
      return { end: start + marker.length, prose: true };
    }
    const value = readLiteral(text, i);
    if (!value.ok) {
      const end = value.cutOff ? text.length : value.end;
      return {
        end,
        errors: [
          {
            raw: text.slice(start, end),
            why: value.cutOff ? CUT_OFF : `it is not a JSON list of calls (${value.why})`,
          },
        ],
      };
    }
    const out: Read = { end: value.end, calls: [], errors: [] };
    callsOfValue(value.value, text.slice(start, value.end), out);
    return out;
  },
  opensCall(text, start, marker) {
    const i = skipWhitespace(text, start + marker.length);
    if (i >= text.length) return undefined;
    return text[i] === '[';
  },
};
