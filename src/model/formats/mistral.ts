/**
 * Ministral 3 (and Mistral's newer tokenizers): `[TOOL_CALLS]NAME[ARGS]{…}`,
 * one marker per call; tools listed in `[AVAILABLE_TOOLS]…[/AVAILABLE_TOOLS]`,
 * results in `[TOOL_RESULTS]…[/TOOL_RESULTS]` (mistral-common's layout).
 *
 * The reader also takes the older `[TOOL_CALLS] [{"name", "arguments"}]` and
 * the `[TOOL_CALLS]NAME{…}` that small models write without `[ARGS]`.
 */
import type { CallReader } from '../readers/call-reader';
import { functionEntry } from '../grammar/grammar-schema';
import { readLiteral, skipWhitespace } from '../readers/literal';
import { pythonJson } from './python-json';
import { CUT_OFF, readJsonValues } from '../readers/read-calls';
import { sharedCallTags } from '../grammar/shared-call-tag';
import { triggeredTags } from '../grammar/structural-tag';
import type { ToolFormat } from './tool-format';

export const mistral: ToolFormat = {
  name: 'mistral',
  summary: '[TOOL_CALLS]NAME[ARGS]{…}',
  example: '[TOOL_CALLS]<tool name>[ARGS]{<arguments as JSON>}',
  argumentSyntax: 'json',
  describeTools(tools) {
    if (tools.length === 0) return '';
    return `[AVAILABLE_TOOLS]${pythonJson(tools.map(functionEntry))}[/AVAILABLE_TOOLS]`;
  },
  grammar(step) {
    const tags = sharedCallTags(step, {
      begin: '[TOOL_CALLS]',
      end: '',
      syntax: 'json',
      call: (tool) => ({ head: `${tool.name}[ARGS]`, schema: tool.parameters }),
    });
    return triggeredTags(['[TOOL_CALLS]'], tags, step.required);
  },
  writeTurn(text, calls) {
    return text + calls.map((call) => `[TOOL_CALLS]${call.name}[ARGS]${JSON.stringify(call.args ?? {})}`).join('');
  },
  writeResults(results) {
    return results.map((result) => `[TOOL_RESULTS]${result.content}[/TOOL_RESULTS]`).join('');
  },
};

export const toolCallsReader: CallReader = {
  markers: ['[TOOL_CALLS]'],
  read(text, start, marker) {
    let i = skipWhitespace(text, start + marker.length);
    const cut = () => ({ end: text.length, errors: [{ raw: text.slice(start), why: CUT_OFF }] });
    if (i >= text.length) return cut();
    if (text[i] === '[' || text[i] === '{') {
      const read = readJsonValues(text, i, undefined);
      const after = skipWhitespace(text, read.end);
      if (text.startsWith('[/TOOL_CALLS]', after)) read.end = after + '[/TOOL_CALLS]'.length;
      return read;
    }
    // One call per marker, as mistral-common writes them: text after the call is not another one.
    const head = /([A-Za-z_][\w.-]*)(?:\[CALL_ID\]([\w-]+))?(?:\[ARGS\])?/y;
    head.lastIndex = i;
    const match = head.exec(text);
    if (!match || !match[0])
      return {
        end: i,
        errors: [{ raw: text.slice(start, Math.min(text.length, start + 200)), why: 'no call follows [TOOL_CALLS]' }],
      };
    const argsAt = skipWhitespace(text, head.lastIndex);
    if (argsAt >= text.length) return cut();
    if (text[argsAt] !== '{') {
      // "[TOOL_CALLS] before calls": a name without [ARGS] or arguments is prose that mentions the marker.
      if (!match[0].includes('[')) return { end: start + marker.length, prose: true };
      return {
        end: argsAt,
        errors: [
          { name: match[1], raw: text.slice(start, argsAt), why: 'its arguments must follow [ARGS] as a JSON object' },
        ],
      };
    }
    const args = readLiteral(text, argsAt);
    if (!args.ok) {
      if (args.cutOff) return cut();
      return {
        end: args.end,
        errors: [
          { name: match[1], raw: text.slice(i, args.end), why: `its arguments are not valid JSON (${args.why})` },
        ],
      };
    }
    const call = { name: match[1], args: args.value, raw: text.slice(i, args.end), ...(match[2] && { id: match[2] }) };
    return { end: args.end, calls: [call] };
  },
};
