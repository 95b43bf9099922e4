/**
 * gemma-2-2b and gemma3-1b have no tool tokens; Google's function-calling
 * guide for Gemma prompts them to write Python in a ```tool_code block and
 * reads results back in ```tool_output. Tools are shown as Python signatures
 * with docstrings; the grammar constrains the call's keyword arguments.
 * (Google's other documented prompt, a bare `[f(a=1)]` list, is read too, but
 * it has no trigger a grammar could wait for: `[` opens prose as often as calls.)
 */
import type { JsonSchema, ToolDeclaration } from '../../tools/declaration';
import type { CallReader, Found, ReadContext } from './call-reader';
import { argumentsGrammar } from './ebnf-arguments';
import { argumentsSchema, describe } from './grammar-schema';
import { readLiteral, skipWhitespace } from './literal';
import { toolCallTagReader } from './hermes';
import { functionEqualsReader } from './qwen-xml';
import { callsOfValue, CUT_OFF, isRecord, looksLikeCall, readPythonicCalls, type Read } from './read-calls';
import { tag, triggeredTags } from './structural-tag';
import type { ToolFormat } from './tool-format';

export const gemmaToolCode: ToolFormat = {
  name: 'gemma-tool-code',
  summary: '```tool_code\\nname(argument=value)\\n```',
  example: '```tool_code\nTOOL_NAME(argument="value")\n```',
  describeTools(tools) {
    if (tools.length === 0) return '';
    return [
      'At each turn, if you decide to invoke any of the function(s), it should be wrapped with ```tool_code```. The python methods described below are imported and available, you can only use defined methods. The generated code should be readable and efficient. The response to a method will be wrapped in ```tool_output``` use it to call more tools or generate a helpful, friendly response. When using a ```tool_call``` think step by step why and how it should be used.',
      '',
      'The following Python methods are available:',
      '',
      '```python',
      tools.map(signature).join('\n\n'),
      '```',
    ].join('\n');
  },
  grammar(step) {
    return triggeredTags(
      ['```tool_code'],
      step.tools.map((tool) =>
        tag(
          `\`\`\`tool_code\n${tool.name}(`,
          {
            type: 'grammar',
            grammar: argumentsGrammar(argumentsSchema(tool, step), 'python', step.relaxed.has(tool.name)),
          },
          ')\n```',
        ),
      ),
      step.required,
    );
  },
  writeTurn(text, calls) {
    if (calls.length === 0) return text;
    const code = calls.map((call) => `${call.name}(${keywordArguments(call.args)})`).join('\n');
    return [text, `\`\`\`tool_code\n${code}\n\`\`\``].filter(Boolean).join('\n');
  },
  writeResults(results) {
    return results.map((result) => `\`\`\`tool_output\n${result.content}\n\`\`\``).join('\n');
  },
};

function signature(tool: ToolDeclaration): string {
  const props = isRecord(tool.parameters.properties) ? (tool.parameters.properties as Record<string, JsonSchema>) : {};
  const required = new Set(Array.isArray(tool.parameters.required) ? (tool.parameters.required as string[]) : []);
  const keys = Object.keys(props).sort((a, b) => Number(required.has(b)) - Number(required.has(a)));
  const params = keys.map((key) => `${key}: ${pythonType(props[key])}${required.has(key) ? '' : ' | None = None'}`);
  const args = keys
    .filter((key) => typeof props[key].description === 'string')
    .map((key) => `      ${key}: ${String(props[key].description).replace(/\s+/g, ' ')}`);
  const doc = [describe(tool), ...(args.length ? ['', '    Args:', ...args] : [])].join('\n');
  return `def ${tool.name}(${params.join(', ')}):\n    """${doc}\n    """`;
}

function pythonType(schema: JsonSchema): string {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (Array.isArray(schema.enum)) return `Literal[${schema.enum.map((value) => JSON.stringify(value)).join(', ')}]`;
  return (
    { string: 'str', integer: 'int', number: 'float', boolean: 'bool', array: 'list', object: 'dict' }[String(type)] ??
    'Any'
  );
}

function keywordArguments(args: unknown): string {
  if (!isRecord(args)) return '';
  return Object.entries(args)
    .map(([key, value]) => `${key}=${pythonLiteral(value)}`)
    .join(', ');
}

function pythonLiteral(value: unknown): string {
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (value === null || value === undefined) return 'None';
  if (Array.isArray(value)) return `[${value.map(pythonLiteral).join(', ')}]`;
  if (typeof value === 'object')
    return `{${Object.entries(value)
      .map(([key, item]) => `${JSON.stringify(key)}: ${pythonLiteral(item)}`)
      .join(', ')}}`;
  return JSON.stringify(value);
}

/**
 * A fenced block: ```tool_code / ```tool_call hold calls (pythonic or JSON);
 * ```json, ```python or a bare fence hold one only when it calls a declared
 * tool and nothing else; ```xml may wrap Hermes or Qwen3.5 markup. Any other
 * block is text, markers inside it included.
 */
export const fencedBlockReader: CallReader = {
  markers: ['```'],
  read(text, start, marker, context) {
    const info = /([\w-]*)[ \t]*\r?\n?/y;
    info.lastIndex = start + marker.length;
    const kind = info.exec(text)![1].toLowerCase();
    const bodyStart = info.lastIndex;
    const close = text.indexOf('```', bodyStart);
    const bodyEnd = close === -1 ? text.length : close;
    const end = close === -1 ? text.length : close + 3;
    const explicit = kind === 'tool_code' || kind === 'tool_call';
    const found = readBlock(text, bodyStart, bodyEnd, kind, context);
    if (!found) return { end, prose: true };
    const declared = found.calls.every((call) => context.tools.has(call.name)) && found.errors.length === 0;
    if (!explicit && !declared) return { end, prose: true };
    if (close === -1) return { end, errors: [{ raw: text.slice(start), why: CUT_OFF }] };
    return { ...found, end };
  },
  opensCall(text, start, marker) {
    const rest = text.slice(start + marker.length, start + marker.length + 16);
    if (!/\n/.test(rest) && rest.length < 16) return undefined;
    return /^(tool_code|tool_call|json|python|py|xml|)\s/i.test(rest);
  },
};

function readBlock(text: string, from: number, to: number, kind: string, context: ReadContext): Read | undefined {
  const body = text.slice(from, to);
  const i = skipWhitespace(body, 0);
  if (i >= body.length) return undefined;
  if (body[i] === '{' || body[i] === '[') {
    if (!['json', 'tool_call', 'tool_code', ''].includes(kind) && !/^\[\s*[A-Za-z_]/.test(body.slice(i)))
      return undefined;
    if (/^\[\s*[A-Za-z_][\w.]*\s*\(/.test(body.slice(i))) return pythonicOnly(body, i);
    const value = readLiteral(body, i);
    if (!value.ok)
      return kind === 'json' || kind === ''
        ? undefined
        : {
            end: 0,
            calls: [],
            errors: [{ raw: body, why: value.cutOff ? CUT_OFF : `it is not valid JSON (${value.why})` }],
          };
    if (skipWhitespace(body, value.end) < body.length || !looksLikeCall(value.value)) return undefined;
    const out: Read = { end: 0, calls: [], errors: [] };
    callsOfValue(value.value, body.slice(i, value.end), out);
    return out;
  }
  if (kind === 'xml' || body[i] === '<') {
    const reader = body.startsWith('<tool_call>', i)
      ? toolCallTagReader
      : body.startsWith('<function=', i)
        ? functionEqualsReader
        : undefined;
    if (!reader) return undefined;
    const marker = body.startsWith('<tool_call>', i) ? '<tool_call>' : '<function=';
    const found: Found = reader.read(body, i, marker, context);
    if (found.prose || skipWhitespace(body, found.end) < body.length) return undefined;
    return { end: 0, calls: found.calls ?? [], errors: found.errors ?? [] };
  }
  if (['tool_code', 'tool_call', 'python', 'py', ''].includes(kind)) return pythonicOnly(body, i);
  return undefined;
}

/** The block is nothing but calls such as name(a=1), one per line. */
function pythonicOnly(body: string, at: number): Read | undefined {
  const out: Read = { end: 0, calls: [], errors: [] };
  let i = at;
  while (i < body.length) {
    const read = readPythonicCalls(body, i);
    if (read.calls.length === 0 && read.errors.length === 0) return undefined;
    out.calls.push(...read.calls);
    out.errors.push(...read.errors);
    if (read.errors.length) return out;
    i = skipWhitespace(body, read.end);
  }
  return out;
}
