import { describe, expect, it } from 'vitest';
import { readModelOutput } from '../../src/model/readers/read-model-output';
import corpus from './corpus/model-outputs.json';
import { tools } from './tools-fixture';
import { OUTPUT_VOCABULARY } from '../../src/model/formats/output-vocabulary';

interface Case {
  format: string;
  note: string;
  output: string;
  text: string;
  calls: { id?: string; name: string; args: unknown }[];
  errors?: { name?: string; messageIncludes: string[] }[];
  /** How the output ended; absent: not said (read as cut off, where that matters). */
  finishReason?: 'stop' | 'length';
}

describe('the reader reads what real models write', () => {
  for (const example of corpus as Case[]) {
    it(`${example.format}: ${example.note}`, () => {
      const read = readModelOutput(example.output, {
        vocabulary: OUTPUT_VOCABULARY,
        tools,
        finishReason: example.finishReason,
      });
      expect(read.calls).toEqual(example.calls);
      expect(read.text).toBe(example.text);
      const expected = example.errors ?? [];
      expect(read.errors).toHaveLength(expected.length);
      expected.forEach((want, i) => {
        if (want.name) expect(read.errors[i].name).toBe(want.name);
        for (const piece of want.messageIncludes) expect(read.errors[i].message).toContain(piece);
        expect(read.errors[i].raw.length).toBeGreaterThan(0);
      });
    });
  }

  it('covers every format the issue names', () => {
    const formats = new Set((corpus as Case[]).map((c) => c.format));
    for (const format of ['hermes', 'qwen2.5', 'llama3.1-json', 'llama3.1-python-tag', 'mistral-v3', 'repair', 'error'])
      expect(formats).toContain(format);
  });

  it('accepts any name when no tool list is given', () => {
    expect(
      readModelOutput('<tool_call>{"name": "anything", "arguments": {}}</tool_call>', { vocabulary: OUTPUT_VOCABULARY })
        .calls,
    ).toEqual([{ name: 'anything', args: {} }]);
  });

  it('tells the model to answer in text when no tools are offered', () => {
    const read = readModelOutput('<tool_call>{"name": "add_todo", "arguments": {}}</tool_call>', {
      vocabulary: OUTPUT_VOCABULARY,
      tools: [],
    });
    expect(read.errors[0].message).toContain('No tools are available');
  });
});
