/**
 * Every pass over model text is linear (issue #11, section 3): hostile
 * megabyte outputs streamed in small chunks, and read whole. Each shape here
 * made an earlier pass quadratic (a growing string searched on every chunk,
 * a repair that trimmed once per bracket, end tokens stripped one by one);
 * quadratic, each would run for minutes and time the test out.
 */
import { describe, expect, it } from 'vitest';
import { readModelOutput } from '../../src/model/readers/read-model-output';
import { ToolCallStream, type StreamPiece } from '../../src/model/readers/stream-tool-calls';
import { tools } from './tools-fixture';
import { OUTPUT_VOCABULARY } from '../../src/model/formats/output-vocabulary';

const MB = 1024 * 1024;

function streamed(output: string, chunk = 32) {
  const stream = new ToolCallStream({ vocabulary: OUTPUT_VOCABULARY, tools });
  const shown: StreamPiece[] = [];
  for (let i = 0; i < output.length; i += chunk) shown.push(...stream.push(output.slice(i, i + chunk)));
  const rest = stream.end('stop');
  const text =
    shown
      .filter((p) => p.type === 'text')
      .map((p) => p.text)
      .join('') + rest.text;
  const reasoning =
    shown
      .filter((p) => p.type === 'reasoning')
      .map((p) => p.text)
      .join('') + rest.reasoning;
  return { ...rest, text, reasoning };
}

describe('reading is linear in the output', () => {
  it('1 MB of plain text streams through whole', () => {
    const text = 'word '.repeat(MB / 5);
    expect(streamed(text).text).toBe(text);
    expect(readModelOutput(text, { vocabulary: OUTPUT_VOCABULARY }).text).toBe(text.trim());
  });

  it('256 KB of "[]," after <tool_call> is one cut-off call, never run', () => {
    const output = `<tool_call>${'[],'.repeat((256 * 1024) / 3)}`;
    for (const read of [streamed(output), readModelOutput(output, { vocabulary: OUTPUT_VOCABULARY, tools })]) {
      expect(read.calls).toEqual([]);
      expect(read.errors).toHaveLength(1);
      expect(read.errors[0].message).toContain('cut off');
    }
  });

  it('256 KB of calls quoted in inline code, or of markers after a backtick that never closes, is text', () => {
    const quoted = '`<tool_call>{"name": "get_time", "arguments": {}}</tool_call>` ';
    const unclosed = `\`${'<tool_call> '.repeat((256 * 1024) / 12)}done.`;
    for (const output of [quoted.repeat(Math.floor((256 * 1024) / quoted.length)), unclosed])
      for (const read of [
        streamed(output, 64),
        readModelOutput(output, { vocabulary: OUTPUT_VOCABULARY, tools, finishReason: 'stop' }),
      ]) {
        expect(read.calls).toEqual([]);
        expect(read.errors).toEqual([]);
      }
  });

  it('128 KB of <|im_end|> after an answer is cut at the first end of turn', () => {
    const output = `Done.${'<|im_end|>'.repeat((128 * 1024) / 10)}`;
    expect(streamed(output).text).toBe('Done.');
  });

  it('256 KB of braces, brackets, "<", fences or markers is text, and a call after 1 MB of whitespace is read', () => {
    for (const unit of ['{', '[', '<', '```', '{"name": ', 'functools ', '<tool_call>']) {
      const output = unit.repeat(Math.floor(MB / 4 / unit.length));
      const read = streamed(output, 64);
      expect(read.calls, unit).toEqual([]);
    }
    const late = `${' '.repeat(MB)}<tool_call>{"name": "get_time", "arguments": {}}</tool_call>`;
    expect(streamed(late).calls).toEqual([{ name: 'get_time', args: {} }]);
  });

  it('1 MB of reasoning streams as reasoning, and a call drafted inside it never runs', () => {
    const output = `<think>${'Maybe <tool_call>{"name": "get_time", "arguments": {}}</tool_call>? '.repeat(MB / 70)}</think>It is noon.`;
    const read = streamed(output, 64);
    expect(read.calls).toEqual([]);
    expect(read.text).toBe('It is noon.');
    expect(read.reasoning.length).toBeGreaterThan(MB / 2);
  });

  it('a 1 MB argument string is read in one pass', () => {
    const long = 'x'.repeat(MB);
    const read = streamed(`<tool_call>{"name": "add_todo", "arguments": {"text": "${long}"}}</tool_call>`, 4096);
    expect(read.calls).toEqual([{ name: 'add_todo', args: { text: long } }]);
  });
});
