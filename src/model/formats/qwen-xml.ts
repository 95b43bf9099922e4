/**
 * Qwen3.5 (and Qwen3-Coder): XML parameters inside the Hermes tag,
 *
 *   <tool_call>\n<function=NAME>\n<parameter=P>\nvalue\n</parameter>\n</function>\n</tool_call>
 *
 * Prompt and layout follow Qwen3.5's template as ollama renders it
 * (model/renderers/qwen35.go): the tools as JSON in <tools>, the call format
 * with its reminder, the tools before the system text. The grammar uses
 * xgrammar's own `qwen_xml_parameter` content, made for this syntax.
 *
 * The reader of `<function=NAME>` also takes Llama 3.1's custom-tool form,
 * `<function=NAME>{"a": 1}</function>`.
 */
import type { JsonSchema } from '../../tools/declaration';
import type { ModelToolCall } from '../engine';
import type { CallReader, Found, ReadContext } from '../readers/call-reader';
import { freeArgumentsContent, functionEntry } from '../grammar/grammar-schema';
import { parseLiteral, readLiteral, skipWhitespace } from '../readers/literal';
import { pythonJson } from './python-json';
import { CUT_OFF, isRecord } from '../readers/read-calls';
import { sharedCallTags } from '../grammar/shared-call-tag';
import { afterOptionalThinking, tag, triggeredTags } from '../grammar/structural-tag';
import type { GrammarStep, ToolFormat } from './tool-format';
import { writeToolResponses } from './tool-responses';

const CALL_FORMAT = `If you choose to call a function ONLY reply in the following format with NO suffix:

<tool_call>
<function=example_function_name>
<parameter=example_parameter_1>
value_1
</parameter>
<parameter=example_parameter_2>
This is the value for the second parameter
that can span
multiple lines
</parameter>
</function>
</tool_call>

<IMPORTANT>
Reminder:
- Function calls MUST follow the specified format: an inner <function=...></function> block must be nested within <tool_call></tool_call> XML tags
- Required parameters MUST be specified
- You may provide optional reasoning for your function call in natural language BEFORE the function call, but NOT after
- If there is no function call available, answer the question like normal with your current knowledge and do not tell the user about function calls
</IMPORTANT>`;

export const qwenXml: ToolFormat = {
  name: 'qwen-xml',
  summary: '<tool_call><function=NAME><parameter=P>value</parameter></function></tool_call>',
  example:
    '<tool_call>\n<function=TOOL_NAME>\n<parameter=ARGUMENT_NAME>\nvalue\n</parameter>\n</function>\n</tool_call>',
  argumentSyntax: 'xml',
  toolsFirst: true,
  thinks: true,
  describeTools(tools) {
    if (tools.length === 0) return '';
    const list = tools.map((tool) => pythonJson(functionEntry(tool))).join('\n');
    return `# Tools\n\nYou have access to the following functions:\n\n<tools>\n${list}\n</tools>\n\n${CALL_FORMAT}`;
  },
  grammar(step: GrammarStep) {
    const tags = sharedCallTags(step, {
      begin: '<tool_call>\n<function=',
      end: '</function>\n</tool_call>',
      syntax: 'xml',
      call(tool) {
        // A tool without parameters is called without any.
        const properties = tool.parameters.properties;
        if (!isRecord(properties) || Object.keys(properties).length === 0) return { head: `${tool.name}>\n` };
        return { head: `${tool.name}>\n`, schema: tool.parameters, tail: '\n' };
      },
      relaxed: (tool) =>
        tag(`<tool_call>\n<function=${tool.name}>`, freeArgumentsContent('xml'), '</function>\n</tool_call>'),
    });
    const format = triggeredTags(['<tool_call>'], tags, step.required);
    return step.required ? afterOptionalThinking(format) : format;
  },
  writeTurn(text: string, calls: readonly ModelToolCall[]) {
    const written = calls.map((call) => {
      const params = Object.entries(isRecord(call.args) ? call.args : {}).map(
        ([key, value]) =>
          `<parameter=${key}>\n${typeof value === 'string' ? value : pythonJson(value)}\n</parameter>\n`,
      );
      return `<tool_call>\n<function=${call.name}>\n${params.join('')}</function>\n</tool_call>`;
    });
    return [text, ...written].filter(Boolean).join('\n\n');
  },
  writeResults: writeToolResponses,
};

/** `<function=NAME>` with XML parameters or a JSON object, up to `</function>`. */
export const functionEqualsReader: CallReader = {
  markers: ['<function='],
  read(text, start, marker, context) {
    const head = /([A-Za-z_][\w.-]*)>/y;
    head.lastIndex = start + marker.length;
    const match = head.exec(text);
    if (!match) return { end: start + marker.length, prose: true };
    return readFunctionBody(text, start, head.lastIndex, match[1], context);
  },
  opensCall(text, start, marker) {
    const head = /[A-Za-z_][\w.-]*(>?)/y;
    head.lastIndex = start + marker.length;
    const match = head.exec(text);
    if (!match) return head.lastIndex >= text.length ? undefined : false;
    if (match[1]) return true;
    return head.lastIndex >= text.length ? undefined : false;
  },
};

/** The body of a function element, from after its opening tag through `</function>`. */
export function readFunctionBody(
  text: string,
  start: number,
  bodyStart: number,
  name: string,
  context: ReadContext,
): Found {
  let i = skipWhitespace(text, bodyStart);
  const schema = context.tools.get(name)?.parameters;
  const cut = (): Found => ({ end: text.length, errors: [{ name, raw: text.slice(start), why: CUT_OFF }] });
  if (text[i] === '{') {
    const args = readLiteral(text, i);
    if (!args.ok) {
      if (args.cutOff) return cut();
      const close = text.indexOf('</function>', args.end);
      const end = close === -1 ? text.length : close + '</function>'.length;
      return {
        end,
        errors: [{ name, raw: text.slice(start, end), why: `its arguments are not valid JSON (${args.why})` }],
      };
    }
    const after = skipWhitespace(text, args.end);
    if (text.startsWith('</function>', after)) {
      const end = after + '</function>'.length;
      return { end: closingToolCall(text, end), calls: [{ name, args: args.value, raw: text.slice(start, end) }] };
    }
    if (after >= text.length) return cut();
    return { end: args.end, calls: [{ name, args: args.value, raw: text.slice(start, args.end) }] };
  }
  const args: Record<string, unknown> = {};
  for (;;) {
    i = skipWhitespace(text, i);
    if (text.startsWith('</function>', i)) {
      const end = i + '</function>'.length;
      return { end: closingToolCall(text, end), calls: [{ name, args, raw: text.slice(start, end) }] };
    }
    if (i >= text.length) return cut();
    const param = /<parameter(?:=|\s+name=)["']?([^"'>\s]+)["']?>/y;
    param.lastIndex = i;
    const match = param.exec(text);
    if (!match) {
      const close = text.indexOf('</function>', i);
      const end = close === -1 ? text.length : close + '</function>'.length;
      if (close === -1) return cut();
      return {
        end,
        errors: [
          { name, raw: text.slice(start, end), why: 'write each argument as <parameter=NAME>value</parameter>' },
        ],
      };
    }
    const valueStart = param.lastIndex;
    const close = text.indexOf('</parameter>', valueStart);
    if (close === -1) return cut();
    args[match[1]] = parameterValue(text.slice(valueStart, close), propertySchema(schema, match[1]));
    i = close + '</parameter>'.length;
  }
}

/** Models that skip the opening <tool_call> still write the closing one: it belongs to the call. */
function closingToolCall(text: string, end: number): number {
  const after = skipWhitespace(text, end);
  return text.startsWith('</tool_call>', after) ? after + '</tool_call>'.length : end;
}

/**
 * A parameter's text as the value its schema asks for. The grammar writes a
 * parameter whose schema is a string as bare text and every other value as
 * JSON, with spaces, tabs and newlines allowed around it that are not part of
 * it; a model that writes an enum or a number bare is read too.
 */
function parameterValue(raw: string, schema: JsonSchema | undefined): unknown {
  const text = trimPadding(raw);
  if (schema?.type === 'string') return text;
  const types = schemaTypes(schema);
  const parsed = parseLiteral(text);
  if (
    parsed.ok &&
    (types.size === 0 || types.has(jsonType(parsed.value)) || (types.has('number') && typeof parsed.value === 'number'))
  )
    return parsed.value;
  return text;
}

/** Without the spaces, tabs and newlines at either end (a loop: a regular expression would be quadratic on long runs). */
function trimPadding(text: string): string {
  const padding = (ch: string) => ch === ' ' || ch === '\n' || ch === '\t';
  let from = 0;
  let to = text.length;
  while (from < to && padding(text[from])) from++;
  while (to > from && padding(text[to - 1])) to--;
  return text.slice(from, to);
}

function schemaTypes(schema: JsonSchema | undefined): Set<string> {
  const types = new Set<string>();
  if (!schema) return types;
  const add = (value: unknown) => {
    if (typeof value === 'string') types.add(value);
    else if (Array.isArray(value)) value.forEach(add);
  };
  add(schema.type);
  for (const key of ['anyOf', 'oneOf'] as const)
    if (Array.isArray(schema[key])) for (const option of schema[key] as JsonSchema[]) add(option?.type);
  if (Array.isArray(schema.enum)) for (const value of schema.enum) types.add(jsonType(value));
  return types;
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function propertySchema(schema: JsonSchema | undefined, key: string): JsonSchema | undefined {
  const properties = schema?.properties;
  return isRecord(properties) && isRecord(properties[key]) ? (properties[key] as JsonSchema) : undefined;
}
