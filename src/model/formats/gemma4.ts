/**
 * gemma-4: `<|tool_call>call:NAME{key:<|"|>text<|"|>,n:1}<tool_call|>`, with
 * strings between `<|"|>` marks and keys in sorted order. Declarations
 * (`<|tool>declaration:NAME{…}<tool|>`), calls and results
 * (`<|tool_response>response:NAME{…}<tool_response|>`) follow Gemma 4's chat
 * template (ollama's model/renderers/testdata/gemma4_e2b_chat_template.jinja2).
 */
import type { JsonSchema, ToolDeclaration } from '../../tools/declaration';
import type { CallReader } from '../readers/call-reader';
import { describe } from '../grammar/grammar-schema';
import { readLiteral, skipWhitespace } from '../readers/literal';
import { CUT_OFF, isRecord } from '../readers/read-calls';
import { sharedCallTags } from '../grammar/shared-call-tag';
import { triggeredTags } from '../grammar/structural-tag';
import type { ToolFormat } from './tool-format';

const Q = '<|"|>';

export const gemma4: ToolFormat = {
  name: 'gemma4',
  summary: '<|tool_call>call:NAME{key:value}<tool_call|>',
  example: '<|tool_call>call:TOOL_NAME{argument:<|"|>text<|"|>,number:1}<tool_call|>',
  argumentSyntax: 'gemma4',
  describeTools(tools) {
    return tools.map((tool) => `<|tool>${declaration(tool)}<tool|>`).join('');
  },
  grammar(step) {
    const tags = sharedCallTags(step, {
      begin: '<|tool_call>call:',
      end: '<tool_call|>',
      syntax: 'gemma4',
      call: (tool) => ({ head: tool.name, schema: tool.parameters }),
    });
    return triggeredTags(['<|tool_call>'], tags, step.required);
  },
  writeTurn(text, calls) {
    return (
      calls
        .map((call) => `<|tool_call>call:${call.name}${gemmaValue(isRecord(call.args) ? call.args : {})}<tool_call|>`)
        .join('') + text
    );
  },
  writeResults(results) {
    return results
      .map((result) => `<|tool_response>response:${result.name}{value:${Q}${result.content}${Q}}<tool_response|>`)
      .join('');
  },
};

export const gemma4CallReader: CallReader = {
  markers: ['<|tool_call>'],
  read(text, start, marker) {
    const cut = () => ({ end: text.length, errors: [{ raw: text.slice(start), why: CUT_OFF }] });
    const head = /\s*call:([A-Za-z_][\w.-]*)\s*/y;
    head.lastIndex = start + marker.length;
    const match = head.exec(text);
    if (!match)
      return head.lastIndex >= text.length || skipWhitespace(text, start + marker.length) >= text.length
        ? cut()
        : {
            end: start + marker.length,
            errors: [{ raw: text.slice(start, start + 80), why: 'write the call as call:NAME{…}' }],
          };
    const args = readLiteral(text, head.lastIndex, { gemmaStrings: true });
    if (!args.ok) {
      if (args.cutOff) return cut();
      const close = text.indexOf('<tool_call|>', args.end);
      const end = close === -1 ? text.length : close + '<tool_call|>'.length;
      return {
        end,
        errors: [{ name: match[1], raw: text.slice(start, end), why: `its arguments are not readable (${args.why})` }],
      };
    }
    const after = skipWhitespace(text, args.end);
    if (after >= text.length) return cut();
    const end = text.startsWith('<tool_call|>', after) ? after + '<tool_call|>'.length : args.end;
    return { end, calls: [{ name: match[1], args: args.value, raw: text.slice(start, end) }] };
  },
};

/** Gemma 4's template's format_argument with bare keys. */
function gemmaValue(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return `${Q}${value}${Q}`;
  if (Array.isArray(value)) return `[${value.map(gemmaValue).join(',')}]`;
  if (typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${key}:${gemmaValue((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  return String(value);
}

function declaration(tool: ToolDeclaration): string {
  const params = tool.parameters;
  const parts: string[] = [];
  if (isRecord(params.properties))
    parts.push(`properties:{${properties(params.properties as Record<string, JsonSchema>)}}`);
  if (Array.isArray(params.required) && params.required.length)
    parts.push(`required:[${(params.required as string[]).map((key) => `${Q}${key}${Q}`).join(',')}]`);
  parts.push(`type:${Q}OBJECT${Q}`);
  return `declaration:${tool.name}{description:${Q}${describe(tool)}${Q},parameters:{${parts.join(',')}}}`;
}

function properties(props: Record<string, JsonSchema>): string {
  return Object.keys(props)
    .sort()
    .map((key) => `${key}:{${property(props[key])}}`)
    .join(',');
}

function property(schema: JsonSchema): string {
  const parts: string[] = [];
  if (typeof schema.description === 'string') parts.push(`description:${Q}${schema.description}${Q}`);
  if (Array.isArray(schema.enum)) parts.push(`enum:${gemmaValue(schema.enum)}`);
  if (isRecord(schema.items)) parts.push(`items:{${property(schema.items as JsonSchema)}}`);
  if (isRecord(schema.properties))
    parts.push(`properties:{${properties(schema.properties as Record<string, JsonSchema>)}}`);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  parts.push(`type:${Q}${String(type ?? 'string').toUpperCase()}${Q}`);
  return parts.join(',');
}
