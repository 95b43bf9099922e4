// When llama.cpp refuses the token that completes a lazy grammar's trigger, the step goes on once from the text
// so far under a grammar that holds every token (the page is told), and a second refusal fails the step.
import { describe, expect, it } from 'vitest';
import type { ModelRequest } from '../../../src/model/engine';
import { goOnUnderStrictGrammar } from '../../../src/model/engines/wllama/strict-grammar-rule';
import { WllamaLog } from '../../../src/model/engines/wllama/wllama-log';
import { markupPrompt } from '../../../src/model/engines/wllama/wllama-prompt';
import { grammarParams, toWllamaRequest } from '../../../src/model/engines/wllama/wllama-request';
import { chatTemplate } from '../../../src/model/engines/wllama/wllama-template';
import { toolFormatNamed } from '../../../src/model/formats/registry';
import { ANY_TEXT_GBNF, structuralTagToGbnf } from '../../../src/model/gbnf/structural-tag-gbnf';
import type { ToolDeclaration } from '../../../src/tools/declaration';

const setAlarm = {
  name: 'set_alarm',
  description: 'Sets an alarm.',
  parameters: { type: 'object', properties: { time: { type: 'string' } }, required: ['time'] },
} as unknown as ToolDeclaration;
const format = toolFormatNamed('hermes');
const planOf = (request: ModelRequest) =>
  toWllamaRequest(request, {
    format,
    prompt: markupPrompt(chatTemplate('chatml'), format, { base: false }),
    contextWindow: 4096,
    temperature: 0,
  });
const planned = planOf({ messages: [{ role: 'user', content: 'Wake me at seven.' }], tools: [setAlarm] });
// The step under the lazy form of its grammar: free text until a call's trigger, constrained from there.
const withTools = {
  ...planned,
  params: { ...planned.params, ...grammarParams(structuralTagToGbnf(planned.structuralTag!, {})) },
};

const log = new WllamaLog();
/** llama.cpp's words when it refuses the token that completed a lazy grammar's trigger. */
const refusedTrigger = log.decodeFailure(
  new Error('Unexpected empty grammar stack after accepting piece: <tool_call>'),
  log.mark,
  'Qwen2.5-Coder',
);

describe('a refused trigger', () => {
  it('goes on under a strict grammar in place of the lazy one, and the page is told', () => {
    expect(withTools.params.grammar_lazy).toBe(true); // the step began under a lazy grammar
    const stricter = goOnUnderStrictGrammar(refusedTrigger, withTools, 'I will set it. ', false);
    expect(stricter).toBeDefined();
    expect(stricter!.params.grammar_lazy).toBeUndefined();
    expect(stricter!.params.grammar_triggers).toBeUndefined();
    expect(stricter!.params.grammar).toEqual(expect.any(String));
    expect(stricter!.params.grammar).not.toBe(withTools.params.grammar);
    // The step's sampling and stops are kept.
    expect(stricter!.params).toMatchObject({
      max_tokens: withTools.params.max_tokens,
      temperature: withTools.params.temperature,
      stop: withTools.params.stop,
    });
    expect(stricter!.notice).toEqual({
      type: 'notice',
      code: 'grammar-strict',
      message: expect.stringMatching(
        /refused the token that started a tool call.*The step went on from there under a grammar that holds every token\.$/,
      ),
    });
  });

  it('goes on only once: a second refusal in the same step fails it', () => {
    expect(goOnUnderStrictGrammar(refusedTrigger, withTools, 'I will set it. ', true)).toBeUndefined();
  });

  it('without tools, goes on under any whole characters', () => {
    const words = planOf({ messages: [{ role: 'user', content: 'Hello.' }], tools: [] });
    expect(goOnUnderStrictGrammar(refusedTrigger, words, 'Hel', false)?.params.grammar).toBe(ANY_TEXT_GBNF);
  });

  it('leaves every other failure to the step', () => {
    const other = log.decodeFailure(new Error('something else broke'), log.mark, 'Qwen2.5-Coder');
    expect(goOnUnderStrictGrammar(other, withTools, '', false)).toBeUndefined();
  });
});
