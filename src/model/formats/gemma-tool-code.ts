/**
 * gemma-2-2b and gemma3-1b have no tool tokens; Google's function-calling
 * guide for Gemma prompts them to write Python in a ```tool_code block and
 * reads results back in ```tool_output. Tools are shown as Python signatures
 * with docstrings; the grammar constrains the call's keyword arguments.
 * (Google's other documented prompt, a bare `[f(a=1)]` list, is read too, but
 * it has no trigger a grammar could wait for: `[` opens prose as often as calls.)
 */
import type { JsonSchema, ToolDeclaration } from '../../tools/declaration';
import type { CallReader, Found, ReadContext } from '../readers/call-reader';
import { describe } from '../grammar/grammar-schema';
import { readLiteral, skipWhitespace } from '../readers/literal';
import { toolCallTagReader } from './hermes';
import { functionEqualsReader } from './qwen-xml';
import { callsOfValue, CUT_OFF, isRecord, looksLikeCall, readPythonicCalls, type Read } from '../readers/read-calls';
import { sharedCallTags } from '../grammar/shared-call-tag';
import { triggeredTags } from '../grammar/structural-tag';
import type { ToolFormat } from './tool-format';

export const gemmaToolCode: ToolFormat = {
  name: 'gemma-tool-code',
  summary: '```tool_code\\nname(argument=value)\\n```',
  example: '```tool_code\nTOOL_NAME(argument="value")\n```',
  argumentSyntax: 'python',
  describeTools(tools) {
    if (tools.length === 0) return '';
    return [
      // Google's wording, with its fences named in words: a fence in prose is where our grammar starts a call, so a
      // model that repeats these lines (a base model does, first thing) would be made to call a tool it never chose.
      'At each turn, if you decide to invoke any of the function(s), write the call as Python, method_name(argument=value), in a tool_code block. The python methods described below are imported and available, you can only use defined methods. The generated code should be readable and efficient. The response to a method will be wrapped in a tool_output block; use it to call more tools or generate a helpful, friendly response. Think step by step about why and how a method should be used.',
      '',
      'The following Python methods are available:',
      '',
      '```python',
      tools.map(signature).join('\n\n'),
      '```',
    ].join('\n');
  },
  grammar(step) {
    const tags = sharedCallTags(step, {
      begin: '```tool_code\n',
      end: ')\n```',
      syntax: 'python',
      call: (tool) => ({ head: `${tool.name}(`, schema: tool.parameters }),
    });
    return triggeredTags(['```tool_code'], tags, step.required);
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
 * block is text; only its opening fence is passed over, so that a call it
 * holds (a grammar constrains a ```tool_code opened by the fence that closes
 * it, or a <tool_call> inside it) is still read.
 */
export const fencedBlockReader: CallReader = {
  markers: ['```'],
  read(text, start, marker, context) {
    const info = /([\w-]*)[ \t]*\r?\n?/y;
    info.lastIndex = start + marker.length;
    const kind = info.exec(text)![1].toLowerCase();
    const bodyStart = info.lastIndex;
    const explicit = kind === 'tool_code' || kind === 'tool_call';
    const prose: Found = { end: start + marker.length, prose: true };
    const cut: Found = { end: text.length, errors: [{ raw: text.slice(start), why: CUT_OFF }] };
    // The calls are read from the text itself, not from a slice up to the next fence: a string may hold ```.
    const found = readBlock(text, bodyStart, kind, context);
    if (!found) return explicit && text.indexOf('```', bodyStart) === -1 ? cut : prose;
    const declared = found.calls.every((call) => context.tools.has(call.name)) && found.errors.length === 0;
    if (!explicit && !declared) return prose;
    const after = skipWhitespace(text, found.end);
    if (text.startsWith('```', after)) return { ...found, end: after + 3 };
    if ('```'.startsWith(text.slice(after))) return cut; // the text ends before the closing fence does
    if (found.errors.length === 0) return prose; // more than calls in the block
    const close = text.indexOf('```', after);
    return { ...found, end: close === -1 ? text.length : close + 3 };
  },
  opensCall(text, start, marker) {
    const rest = text.slice(start + marker.length, start + marker.length + 16);
    if (!/\n/.test(rest) && rest.length < 16) return undefined;
    return /^(tool_code|tool_call|json|python|py|xml|)\s/i.test(rest);
  },
};

/** The calls a block holds from `from` on, and where they end; undefined when it does not start with one. */
function readBlock(text: string, from: number, kind: string, context: ReadContext): Read | undefined {
  const i = skipWhitespace(text, from);
  if (i >= text.length) return undefined;
  if (text[i] === '{' || text[i] === '[') {
    const head = text.slice(i, i + 80);
    if (!['json', 'tool_call', 'tool_code', ''].includes(kind) && !/^\[\s*[A-Za-z_]/.test(head)) return undefined;
    if (/^\[\s*[A-Za-z_][\w.]*\s*\(/.test(head)) return pythonicCalls(text, i, context);
    const value = readLiteral(text, i);
    if (!value.ok)
      return kind === 'json' || kind === ''
        ? undefined
        : {
            end: value.cutOff ? text.length : value.end,
            calls: [],
            errors: [
              { raw: text.slice(i, value.end), why: value.cutOff ? CUT_OFF : `it is not valid JSON (${value.why})` },
            ],
          };
    if (!looksLikeCall(value.value)) return undefined;
    const out: Read = { end: value.end, calls: [], errors: [] };
    callsOfValue(value.value, text.slice(i, value.end), out);
    return out;
  }
  if (kind === 'xml' || text[i] === '<') {
    const marker = text.startsWith('<tool_call>', i)
      ? '<tool_call>'
      : text.startsWith('<function=', i)
        ? '<function='
        : '';
    if (!marker) return undefined;
    const reader = marker === '<tool_call>' ? toolCallTagReader : functionEqualsReader;
    const found: Found = reader.read(text, i, marker, context);
    if (found.prose) return undefined;
    return { end: found.end, calls: found.calls ?? [], errors: found.errors ?? [] };
  }
  if (['tool_code', 'tool_call', 'python', 'py', ''].includes(kind)) return pythonicCalls(text, i, context);
  return undefined;
}

/** Calls such as name(a=1), one per line, from `at` for as long as they go on. */
function pythonicCalls(text: string, at: number, context: ReadContext): Read | undefined {
  const out: Read = { end: at, calls: [], errors: [] };
  let i = at;
  for (;;) {
    const read = readPythonicCalls(text, i, context.tools);
    if (read.calls.length === 0 && read.errors.length === 0) break;
    out.calls.push(...read.calls);
    out.errors.push(...read.errors);
    out.end = read.end;
    if (read.errors.length) break;
    i = skipWhitespace(text, read.end);
  }
  return out.calls.length || out.errors.length ? out : undefined;
}
