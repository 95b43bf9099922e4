/**
 * The readers' rules (issue #12, "Readers …"): strict where running the wrong
 * thing is at stake, forgiving where it is safe.
 */
import { describe, expect, it } from 'vitest';
import { readModelOutput } from '../../src/model/readers/read-model-output';
import { ToolCallStream, type StreamPiece } from '../../src/model/readers/stream-tool-calls';
import { tools } from './tools-fixture';
import { OUTPUT_VOCABULARY } from '../../src/model/formats/output-vocabulary';

const read = (output: string, finishReason?: 'stop' | 'length') =>
  readModelOutput(output, { vocabulary: OUTPUT_VOCABULARY, tools, finishReason });

function stream(chunks: string[]) {
  const s = new ToolCallStream({ vocabulary: OUTPUT_VOCABULARY, tools });
  const shown: StreamPiece[][] = chunks.map((chunk) => s.push(chunk));
  return { shown, end: s.end('stop') };
}

describe('strict where it matters', () => {
  it('never runs a call from output cut off at the length limit, even a complete one', () => {
    const output = '<tool_call>{"name": "get_time", "arguments": {}}</tool_call><tool_call>{"name": "add_todo", "argu';
    const result = read(output, 'length');
    expect(result.calls).toEqual([]);
    expect(result.errors.map((e) => e.message).join(' ')).toMatch(/cut off/);
  });

  it('runs each call of a turn the engine stopped in a loop once, and drops what the loop wrote again', () => {
    // The 0.5B wrote "book a van" and "cancel the internet" as asked, then both again, until stopped as a loop.
    const van = '{"name": "add_todo", "arguments": {"text": "book a van"}}';
    const internet = '{"name": "add_todo", "arguments": {"text": "cancel the internet"}}';
    const output = `${van}, ${internet}, ${van}, ${internet}, ${van}, {"name": "add_to`;
    const looped = readModelOutput(output, {
      vocabulary: OUTPUT_VOCABULARY,
      tools,
      finishReason: 'length',
      looped: true,
    });
    expect(looped.calls).toEqual([
      { name: 'add_todo', args: { text: 'book a van' } },
      { name: 'add_todo', args: { text: 'cancel the internet' } },
    ]);
    expect(looped.errors).toEqual([]);
    // The commas between the calls, and the call the loop had begun again, are no words to the person.
    expect(looped.text).toBe('');
    expect(
      readModelOutput(`${van}, ${internet}, ${van}, {"`, {
        vocabulary: OUTPUT_VOCABULARY,
        tools,
        finishReason: 'length',
        looped: true,
      }).text,
    ).toBe('');
    // At the token limit the same output runs nothing.
    expect(read(output, 'length').calls).toEqual([]);
  });

  it('in a looped turn, still refuses what it would refuse in any turn: a call cut off that is no repeat, an unknown tool', () => {
    const output =
      '<tool_call>{"name": "fly", "arguments": {}}</tool_call><tool_call>{"name": "add_todo", "arguments": {"text": "milk"}}</tool_call>' +
      '<tool_call>{"name": "add_todo", "arguments": {"text": "eggs and br';
    const looped = readModelOutput(output, {
      vocabulary: OUTPUT_VOCABULARY,
      tools,
      finishReason: 'length',
      looped: true,
    });
    expect(looped.calls).toEqual([{ name: 'add_todo', args: { text: 'milk' } }]);
    expect(looped.errors).toEqual([
      expect.objectContaining({ name: 'add_todo', message: expect.stringMatching(/cut off/) }),
      expect.objectContaining({ name: 'fly' }),
    ]);
  });

  it('never runs a call whose tag or JSON was left open', () => {
    for (const output of [
      '<tool_call>{"name": "get_time", "arguments": {}}',
      '<tool_call>{"name": "add_todo", "arguments": {"text": "mi',
      '<tool_call>\n<function=add_todo>\n<parameter=text>\nmilk\n',
      '<|python_tag|>{"name": "get_time", "parameters": {',
      '[TOOL_CALLS]add_todo[ARGS]{"text": "milk"',
      'functools[{"name": "get_time", "arguments": {}}',
      '<|tool_call>call:add_todo{text:<|"|>milk',
      '```tool_code\nadd_todo(text="milk")',
      '{"name": "add_todo", "parameters": {"text": "milk"}',
    ]) {
      const result = read(output);
      expect(result.calls, output).toEqual([]);
      expect(result.errors, output).toHaveLength(1);
      expect(result.errors[0].message, output).toContain('cut off');
    }
  });

  it('never runs a call whose list or JSON was left open when the turn ended, whatever ended it (an end-of-turn token too)', () => {
    for (const end of ['', '<|im_end|>', '<|eot_id|>', '<end_of_turn>', '</s>'])
      for (const output of [
        `functools[{"name": "get_time", "arguments": {}}${end}`,
        `<tool_call>{"name": "add_todo", "arguments": {"text": "mi${end}`,
        `<tool_call>[{"name": "get_time", "arguments": {}}${end}`,
      ]) {
        for (const read of [
          readModelOutput(output, { vocabulary: OUTPUT_VOCABULARY, tools, finishReason: 'stop' }),
          stream([output]).end,
        ]) {
          expect(read.calls, output).toEqual([]);
          expect(read.errors.map((e) => e.message).join(' '), output).toMatch(/cut off/);
        }
      }
    // A call closed before the turn ends runs.
    expect(read('<tool_call>{"name": "get_time", "arguments": {}}</tool_call><|im_end|>').calls).toHaveLength(1);
  });

  // Issue 23: vLLM (test_hermes_parser_non_streaming_tool_call_until_eos) and ollama run such a call.
  it('runs a complete call whose closing tag is missing when the model ended its turn; never at the length limit', () => {
    for (const end of ['', '\n', '<|im_end|>', '<|eot_id|>', '<end_of_turn>', '</s>'])
      for (const output of [
        `text <tool_call>{"name": "get_time", "arguments": {}}${end}`,
        `<tool_call>\n{"name": "add_todo", "parameters": {"text": "milk"}}\n${end}`,
      ]) {
        const name = output.includes('add_todo') ? 'add_todo' : 'get_time';
        for (const ended of [
          readModelOutput(output, { vocabulary: OUTPUT_VOCABULARY, tools, finishReason: 'stop' }),
          stream([output]).end,
        ]) {
          expect(
            ended.calls.map((call) => call.name),
            output,
          ).toEqual([name]);
          expect(ended.errors, output).toEqual([]);
        }
        for (const finishReason of ['length', undefined] as const) {
          const cut = readModelOutput(output, { vocabulary: OUTPUT_VOCABULARY, tools, finishReason });
          expect(cut.calls, `${output} (${finishReason})`).toEqual([]);
          expect(cut.errors.map((e) => e.message).join(' '), output).toMatch(/cut off/);
        }
      }
    // Without its arguments the call is not known to be whole.
    expect(read('<tool_call>{"name": "get_time"}', 'stop').calls).toEqual([]);
  });

  it('never runs a call quoted in inline code, where the model shows the syntax; a call after the quote runs', () => {
    const quoted =
      'A call looks like `<tool_call>{"name": "add_todo", "arguments": {"text": "milk"}}</tool_call>`; put the text in "text".';
    for (const result of [read(quoted, 'stop'), stream(['A call looks like `', quoted.slice(19)]).end]) {
      expect(result.calls).toEqual([]);
      expect(result.errors).toEqual([]);
    }
    expect(read(quoted, 'stop').text).toBe(quoted);
    for (const output of [
      'Write ``{"name": "get_time", "arguments": {}}`` to ask the time.',
      'Like `[get_time()]`, or `{"name": "get_time", "parameters": {}}`.',
    ])
      expect(read(output, 'stop'), output).toEqual({ text: output, reasoning: '', calls: [], errors: [] });
    // A lone backtick quotes nothing; a fenced block is not inline code; a call after a closed quote runs.
    for (const output of [
      'It\'s a ` sign. <tool_call>{"name": "get_time", "arguments": {}}</tool_call>',
      '```\n<tool_call>{"name": "get_time", "arguments": {}}</tool_call>\n```',
      'Calls look like `<tool_call>…</tool_call>`. <tool_call>{"name": "get_time", "arguments": {}}</tool_call>',
    ])
      expect(read(output, 'stop').calls, output).toEqual([{ name: 'get_time', args: {} }]);
  });

  // ollama (tools_test.go, qwen3 "malformed tag prefix") shows it as text, as we do.
  it('never runs JSON written inside a broken tag: it stays the text it is', () => {
    const output = '<tool_c fakeout {"name": "add_todo", "arguments": {"text": "milk"}} </tool_call>';
    for (const result of [read(output, 'stop'), stream(['<tool_c fakeout ', output.slice(16)]).end]) {
      expect(result.calls).toEqual([]);
      expect(result.errors).toEqual([]);
    }
    expect(read(output, 'stop').text).toBe(output);
    // JSON after a closed tag, or after a comparison, is read as before.
    for (const output of [
      '<b>Now:</b> {"name": "get_time", "parameters": {}}',
      'Since 2 < 3: {"name": "get_time", "parameters": {}}',
    ])
      expect(read(output, 'stop').calls, output).toEqual([{ name: 'get_time', args: {} }]);
  });

  it('does not end a call at a </tool_call> inside a JSON string', () => {
    const result = read(
      '<tool_call>{"name": "add_todo", "arguments": {"text": "write </tool_call> on the board"}}</tool_call>',
    );
    expect(result.calls).toEqual([{ name: 'add_todo', args: { text: 'write </tool_call> on the board' } }]);
    expect(result.text).toBe('');
  });

  it('keeps <think> as reasoning: a call drafted inside it never runs, and it streams as reasoning', () => {
    const output =
      '<think>I could call <tool_call>{"name": "get_time", "arguments": {}}</tool_call> but no.</think>It is noon.';
    const result = read(output);
    expect(result.calls).toEqual([]);
    expect(result.reasoning).toContain('I could call');
    expect(result.text).toBe('It is noon.');

    const { shown, end } = stream(['<thi', 'nk>Let me ', 'think.</th', 'ink>Noon.']);
    expect(shown.flat()).toEqual([
      { type: 'reasoning', text: 'Let me ' },
      { type: 'reasoning', text: 'think.' },
      { type: 'text', text: 'Noon.' },
    ]);
    expect(end.calls).toEqual([]);
  });

  it('reads reasoning whose <think> the template opened: a call drafted in it never runs', () => {
    const result = read(
      'Maybe <tool_call>{"name": "get_time", "arguments": {}}</tool_call>? No.\n</think>\n\nIt is noon.',
    );
    expect(result).toEqual({
      text: 'It is noon.',
      reasoning: 'Maybe <tool_call>{"name": "get_time", "arguments": {}}</tool_call>? No.',
      calls: [],
      errors: [],
    });
  });

  it('a Qwen3 call after its thinking runs', () => {
    const result = read(
      '<think>\nThe user wants the time.\n</think>\n\n<tool_call>\n{"name": "get_time", "arguments": {}}\n</tool_call>',
    );
    expect(result.calls).toEqual([{ name: 'get_time', args: {} }]);
    expect(result.reasoning).toBe('The user wants the time.');
  });
});

describe('forgiving where it is safe', () => {
  it('repairs a raw tab or newline inside a string', () => {
    const result = read('<tool_call>{"name": "add_todo", "arguments": {"text": "milk\tand\neggs"}}</tool_call>');
    expect(result.calls).toEqual([{ name: 'add_todo', args: { text: 'milk\tand\neggs' } }]);
  });

  it('reads prose that merely mentions the tags as text, not as an error', () => {
    for (const output of [
      'Wrap calls in <tool_call> tags, like the docs say.',
      'The <function=...> syntax is what Qwen3.5 writes.',
      'In Python, functools is a module.',
      'Mistral writes [TOOL_CALLS] before calls.',
    ]) {
      const result = read(output);
      expect(result, output).toEqual({ text: output, reasoning: '', calls: [], errors: [] });
    }
  });

  it('treats <tool_call>[]</tool_call> as no call', () => {
    expect(read('Nothing to do. <tool_call>[]</tool_call>')).toEqual({
      text: 'Nothing to do.',
      reasoning: '',
      calls: [],
      errors: [],
    });
  });

  it('shows prose as it comes and holds back only what may be a call', () => {
    const { shown, end } = stream([
      'Sure, ',
      'I will use functools',
      ' here. Now ',
      '<tool_call>',
      '{"name": "get_time", "arguments": {}}</tool_call>',
    ]);
    expect(shown.map((pieces) => pieces.map((p) => ('text' in p ? p.text : '')).join(''))).toEqual([
      'Sure, ',
      'I will use ',
      'functools here. Now ',
      '',
      '',
    ]);
    expect(end.calls).toEqual([{ name: 'get_time', args: {} }]);
  });

  it('reads a call in any family format, whatever the model', () => {
    const outputs = [
      '<tool_call>\n<function=set_volume>\n<parameter=level>\n3\n</parameter>\n</function>\n</tool_call>',
      '<|tool_call>call:set_volume{level:3}<tool_call|>',
      'functools[{"name": "set_volume", "arguments": {"level": 3}}]',
      '[TOOL_CALLS]set_volume{"level": 3}',
      '```tool_code\nset_volume(level=3)\n```',
      '[set_volume(level=3)]',
      'Setting it. {"name": "set_volume", "parameters": {"level": 3}} Done.',
      '<function name="set_volume">{"level": 3}</function>',
      '<tool>{"name": "set_volume", "arguments": {"level": 3}}</tool>',
      '```xml\n<tool_call>{"name": "set_volume", "arguments": {"level": 3}}</tool_call>\n```',
    ];
    for (const output of outputs)
      expect(read(output).calls, output).toEqual([{ name: 'set_volume', args: { level: 3 } }]);
  });
});
