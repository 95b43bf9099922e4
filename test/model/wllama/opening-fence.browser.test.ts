/**
 * A step that may call or answer opens with a call or with words (wllama-request.ts). Where a family's call may
 * also come in a ```json fence (Hermes, as Qwen2.5-Coder writes it), the turn may open with that fence too: held
 * as a call when it goes on as one, code when it is any other fence. The GBNF llama.cpp gets, checked by
 * web-xgrammar, which reads the same notation.
 */
import { describe, expect, it } from 'vitest';
import { Grammar, Testings } from '@mlc-ai/web-xgrammar';
import type { ModelRequest } from '../../../src/model/engine';
import { toolFormatNamed } from '../../../src/model/formats/registry';
import { toWllamaRequest } from '../../../src/model/engines/wllama/wllama-request';
import { chatTemplate } from '../../../src/model/engines/wllama/wllama-template';
import { markupPrompt } from '../../../src/model/engines/wllama/wllama-prompt';
import { addTodo } from '../tools-fixture';

const request: ModelRequest = { messages: [{ role: 'user', content: 'Add milk to my list.' }], tools: [addTodo] };

async function grammarOf(format: 'hermes' | 'gemma-tool-code'): Promise<Grammar> {
  const toolFormat = toolFormatNamed(format);
  const template = chatTemplate(format === 'hermes' ? 'chatml' : 'gemma');
  const plan = toWllamaRequest(request, {
    format: toolFormat,
    prompt: markupPrompt(template, toolFormat, { base: false }),
    contextWindow: 4096,
    temperature: 0,
  });
  // xgrammar reads the hex of \x as far as it goes (\x5fa is U+05FA); llama.cpp reads two digits. The same escapes as \u.
  return Grammar.fromEBNF(String(plan.params.grammar).replace(/\\x([0-9a-f]{2})/g, '\\u00$1'));
}

const accepts = async (grammar: Grammar, text: string) => Testings.isGrammarAcceptString(grammar, text);

describe('a Hermes turn that may call or answer', () => {
  it('may open with its call in a ```json fence, held as a call', async () => {
    const grammar = await grammarOf('hermes');
    expect(await accepts(grammar, '```json\n{"name": "add_todo", "arguments": {"text": "milk"}}\n```')).toBe(true);
    // The fence holds a call to a declared tool with valid arguments, or is not written.
    expect(await accepts(grammar, '```json\n{"name": "get_time", "arguments": {}}\n```')).toBe(false);
    expect(await accepts(grammar, '```json\n{"name": "add_todo", "arguments": {"item": "milk"}}\n```')).toBe(false);
    expect(await accepts(grammar, '```json\n{"text": "milk"}\n```')).toBe(false);
  });

  it('may open with code in any other fence, as words', async () => {
    const grammar = await grammarOf('hermes');
    expect(await accepts(grammar, '```python\nprint("Oslo")\n```\nThat prints it.')).toBe(true);
    expect(await accepts(grammar, '```\nOslo\n```')).toBe(true);
  });

  it('still opens with a call or words, not with bare JSON that is not a call, a bracket or white space', async () => {
    const grammar = await grammarOf('hermes');
    expect(await accepts(grammar, '{"name": "add_todo", "arguments": {"text": "milk"}}')).toBe(true);
    expect(await accepts(grammar, 'It is sunny in Oslo.')).toBe(true);
    for (const echo of ['{"added": true}', '["milk"]', ' It is sunny.', '`inline`'])
      expect(await accepts(grammar, echo), echo).toBe(false);
  });
});

describe("Gemma's turn, whose only call markup is a fence", () => {
  it('opens with its ```tool_code call or with words, as before', async () => {
    const grammar = await grammarOf('gemma-tool-code');
    expect(await accepts(grammar, '```tool_code\nadd_todo(text="milk")\n```')).toBe(true);
    expect(await accepts(grammar, 'It is sunny in Oslo.')).toBe(true);
    expect(await accepts(grammar, '```python\nprint("Oslo")\n```')).toBe(false);
  });
});
