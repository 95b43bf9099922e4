/**
 * A call shows as soon as its tool's name is written (issue 32, "work you can
 * see"): the stream says which tool a held call is for, once, in every
 * family's markup, and never for a name the step does not offer.
 */
import { describe, expect, it } from 'vitest';
import { ToolCallStream, type StreamOptions, type StreamPiece } from '../../src/model/readers/stream-tool-calls';
import { tool, tools } from './tools-fixture';
import { OUTPUT_VOCABULARY } from '../../src/model/formats/output-vocabulary';

/** Each chunk's call starts, by push. */
function starts(chunks: string[], options: Omit<StreamOptions, 'vocabulary'> = { tools }) {
  const stream = new ToolCallStream({ vocabulary: OUTPUT_VOCABULARY, ...options });
  const seen = chunks.map((chunk) =>
    stream.push(chunk).flatMap((piece: StreamPiece) => (piece.type === 'tool-call-start' ? [piece.name] : [])),
  );
  return { seen, end: stream.end('stop') };
}

describe('a call is announced once its tool name is written', () => {
  it('while the arguments are still being written, then read as usual at the end', () => {
    const { seen, end } = starts([
      'Sure. <tool_call>\n{"name": "add_',
      'todo", "arguments": {"text": "mi',
      'lk"}}\n</tool_call>',
    ]);
    expect(seen).toEqual([[], ['add_todo'], []]);
    expect(end.calls).toEqual([{ name: 'add_todo', args: { text: 'milk' } }]);
  });

  it('in every family’s markup', () => {
    const outputs: Record<string, string> = {
      hermes: '<tool_call>{"name": "add_todo", "arguments": {"text": "milk"}}</tool_call>',
      'qwen-xml': '<tool_call>\n<function=add_todo>\n<parameter=text>\nmilk\n</parameter>\n</function>\n</tool_call>',
      'llama3-json': '{"name": "add_todo", "parameters": {"text": "milk"}}',
      'pythonic list': '[add_todo(text="milk")]',
      'gemma tool_code': '```tool_code\nadd_todo(text="milk")\n```',
      gemma4: '<|tool_call>call:add_todo{text:<|"|>milk<|"|>}<tool_call|>',
      mistral: '[TOOL_CALLS]add_todo[ARGS]{"text": "milk"}',
      functools: 'functools[{"name": "add_todo", "arguments": {"text": "milk"}}]',
    };
    for (const [format, output] of Object.entries(outputs)) {
      // In pieces of three characters, as a tokenizer might split it.
      const chunks = output.match(/[^]{1,3}/g)!;
      const { seen, end } = starts(chunks);
      expect(seen.flat(), format).toEqual(['add_todo']);
      expect(
        end.calls.map((call) => call.name),
        format,
      ).toEqual(['add_todo']);
    }
  });

  it('each call of a turn, in order', () => {
    const { seen } = starts([
      '<tool_call>{"name": "add_todo", "arguments": {"text": "milk"}}</tool_call>\n',
      '<tool_call>{"name": "get_time", "arguments": {}}</tool_call>',
    ]);
    expect(seen).toEqual([['add_todo'], ['get_time']]);
  });

  it('never for a name the step does not offer, nor for a tool named in prose', () => {
    // "hello" is no tool; set_volume is described but not allowed in this step.
    expect(starts(['<tool_call>{"name": "hello", "arguments": {}}</tool_call>']).seen.flat()).toEqual([]);
    expect(
      starts(['<tool_call>{"name": "set_volume", "arguments": {"level": 3}}</tool_call>'], {
        tools,
        allowed: ['add_todo'],
      }).seen.flat(),
    ).toEqual([]);
    expect(starts(['I can use add_todo("milk") for that, if you want.']).seen.flat()).toEqual([]);
  });

  it('a longer name is not taken for a shorter one it begins with', () => {
    const add = tool('add', { type: 'object', properties: {} });
    const { seen } = starts(['<tool_call>{"name": "add_todo", "arguments": {"text": "x"}}</tool_call>'], {
      tools: [add, ...tools],
    });
    expect(seen.flat()).toEqual(['add_todo']);
  });
});
