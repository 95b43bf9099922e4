/**
 * The disagreements the random-model check found, each as the smallest case:
 * an output the step's grammar (compiled by the real web-xgrammar) lets a
 * model write, and what our reader and validator must make of it. Each names
 * the random-model seed where it first showed.
 */
import { describe, expect, it } from 'vitest';
import { planToolCalls } from '../../../src/model/formats/tool-call-plan';
import type { ToolFormatName } from '../../../src/model/formats/tool-format';
import { validateWithJsonSchema } from '../../../src/tools/validate-args';
import type { ToolDeclaration } from '../../../src/tools/declaration';
import { tool } from '../tools-fixture';
import { Grammar, Testings } from './xgrammar';

async function allows(format: ToolFormatName, tools: ToolDeclaration[], output: string): Promise<boolean> {
  const grammar = await Grammar.fromStructuralTag(planToolCalls(format, tools).responseFormat!.structural_tag as never);
  try {
    return await Testings.isGrammarAcceptString(grammar, output);
  } finally {
    grammar.dispose();
  }
}

const object = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});

describe('grammar and JSON', () => {
  // What zod 4 emits for z.string().startsWith('https://'): xgrammar's "." also matches '"' and '\'.
  const site = tool('open_site', object({ url: { type: 'string', pattern: '^https:\\/\\/.*' } }, ['url']));

  it('a pattern with "." never lets an unescaped quote end a JSON string early (seed 3348639394)', async () => {
    const output = '<tool_call>\n{"name": "open_site", "arguments": {"url": "https://a"b"}}\n</tool_call>';
    expect(await allows('hermes', [site], output)).toBe(false);
  });

  // xgrammar writes a length-bounded string as [^"\\\r\n]{0,n}: raw control characters pass.
  const note = tool('note', object({ text: { type: 'string', maxLength: 8 } }, ['text']));

  it('a raw control character the grammar admits in a bounded string is read as that character', async () => {
    const output = '<tool_call>\n{"name": "note", "arguments": {"text": "a\u000bb\tc"}}\n</tool_call>';
    expect(await allows('hermes', [note], output)).toBe(true);
    const read = planToolCalls('hermes', [note]).read(output, 'stop');
    expect(read.errors).toEqual([]);
    expect(read.calls).toEqual([{ name: 'note', args: { text: 'a\u000bb\tc' } }]);
  });
});

describe('reasoning', () => {
  const say = tool('say', object({ text: { type: 'string' } }, ['text']));

  it('a </think> inside an argument does not turn the calls before it into reasoning (seed 4115018316)', async () => {
    const first = '<tool_call>\n{"name": "say", "arguments": {"text": "hi"}}\n</tool_call>';
    const second = '<tool_call>\n{"name": "say", "arguments": {"text": "a </think> b"}}\n</tool_call>';
    expect(await allows('qwen3', [say], `${first}\n${second}`)).toBe(true);
    expect(planToolCalls('qwen3', [say]).read(`${first}\n${second}`, 'stop').calls).toEqual([
      { name: 'say', args: { text: 'hi' } },
      { name: 'say', args: { text: 'a </think> b' } },
    ]);
  });
});

describe('prose the grammar leaves free', () => {
  const getTime = tool('get_time', { type: 'object', properties: {} });

  it('Llama 3.2: <|python_tag|> in prose does not swallow the call the grammar then constrains (seed 3672200303)', async () => {
    const output = '<|python_tag|>i said\n{"name": "get_time", "parameters": {}}';
    expect(await allows('llama3-json', [getTime], output)).toBe(true);
    const read = planToolCalls('llama3-json', [getTime]).read(output, 'stop');
    expect(read.calls).toEqual([{ name: 'get_time', args: {} }]);
    expect(read.errors).toEqual([]);
  });

  it('a bracket and a name before a parenthesis in prose is not a broken call (seed 2315938912)', async () => {
    const output = '"is[TOOL_C("\'",';
    expect(await allows('mistral', [getTime], output)).toBe(true);
    const read = planToolCalls('mistral', [getTime]).read(output, 'stop');
    expect(read).toMatchObject({ calls: [], errors: [] });
  });
});

describe('Python and Gemma 4 argument grammars', () => {
  const volume = tool('set_volume', object({ level: { type: 'integer', minimum: 0, maximum: 10 } }, ['level']));
  const card = tool('move_card', object({ id: { type: 'string', pattern: '^[A-Z]{2}-[0-9]{1,4}$' } }, ['id']));
  const filters = tool(
    'find',
    object({ filters: { type: 'array', items: { type: 'string' }, minItems: 1 } }, ['filters']),
  );

  it.each([
    ['gemma-tool-code', '```tool_code\nset_volume(level=99)\n```'],
    ['gemma4', '<|tool_call>call:set_volume{level:99}<tool_call|>'],
  ] as const)('%s: the grammar holds integer bounds (seed 161696133)', async (format, output) => {
    expect(validateWithJsonSchema(volume, { level: 99 }).ok).toBe(false);
    expect(await allows(format, [volume], output)).toBe(false);
  });

  it.each([
    ['gemma-tool-code', '```tool_code\nmove_card(id="nope")\n```'],
    ['gemma4', '<|tool_call>call:move_card{id:<|"|>nope<|"|>}<tool_call|>'],
  ] as const)('%s: the grammar holds string patterns (seed 161735728)', async (format, output) => {
    expect(await allows(format, [card], output)).toBe(false);
  });

  it.each([
    ['gemma-tool-code', '```tool_code\nfind(filters=[])\n```'],
    ['gemma4', '<|tool_call>call:find{filters:[]}<tool_call|>'],
  ] as const)('%s: the grammar holds minItems (seed 1452558697)', async (format, output) => {
    expect(await allows(format, [filters], output)).toBe(false);
  });

  const say = tool('say', object({ text: { type: 'string' } }, ['text']));

  it('Python keeps the backslash of an escape it does not know: "\\," is two characters (seed 1452534940)', async () => {
    const output = '```tool_code\nsay(text="a\\,b")\n```';
    expect(await allows('gemma-tool-code', [say], output)).toBe(true);
    expect(planToolCalls('gemma-tool-code', [say]).read(output, 'stop').calls).toEqual([
      { name: 'say', args: { text: 'a\\,b' } },
    ]);
  });

  it('a call opened by the ``` that closes a fence in prose is still read (seed 1452265694)', async () => {
    const output = 'see ```x```tool_code\nsay(text="hi")\n```';
    expect(await allows('gemma-tool-code', [say], output)).toBe(true);
    expect(planToolCalls('gemma-tool-code', [say]).read(output, 'stop').calls).toEqual([
      { name: 'say', args: { text: 'hi' } },
    ]);
  });
});

describe("Qwen3.5's XML parameters", () => {
  const when = tool(
    'schedule',
    object({ at: { type: 'string', format: 'date-time' }, priority: { enum: ['low', 'high'] } }, ['at', 'priority']),
  );

  it('whitespace the grammar allows around a value is not part of it (seed 3378277367)', async () => {
    const output =
      '<tool_call>\n<function=schedule>\n<parameter=at>\n\n2024-01-31T09:00:00Z \n</parameter>\n<parameter=priority>\n"high"\n</parameter>\n</function>\n</tool_call>';
    expect(await allows('qwen-xml', [when], output)).toBe(true);
    const read = planToolCalls('qwen-xml', [when]).read(output, 'stop');
    expect(read.calls).toEqual([{ name: 'schedule', args: { at: '2024-01-31T09:00:00Z', priority: 'high' } }]);
    expect(validateWithJsonSchema(when, read.calls[0].args).ok).toBe(true);
  });
});
