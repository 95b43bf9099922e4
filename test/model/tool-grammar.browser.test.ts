import { describe, expect, it } from 'vitest';
import { Grammar, Testings } from '@mlc-ai/web-xgrammar';
import { callOrAnswerSchema, toolCallStructuralTag } from '../../src/model/tool-grammar';
import { tools } from './tools-fixture';

describe('structural tag grammar compiled by web-xgrammar', () => {
  it('accepts free text and valid calls, rejects others', async () => {
    const grammar = await Grammar.fromStructuralTag(toolCallStructuralTag(tools));
    const accepts = (s: string) => Testings.isGrammarAcceptString(grammar, s);
    expect(await accepts('Hello there')).toBe(true);
    expect(await accepts('<tool_call>{"name": "add_todo", "arguments": {"text": "milk"}}</tool_call>')).toBe(true);
    expect(await accepts('<tool_call>{"name": "nope", "arguments": {}}</tool_call>')).toBe(false);
  });
  it('json', async () => {
    const grammar = await Grammar.fromJSONSchema(JSON.stringify(callOrAnswerSchema(tools)));
    expect(await Testings.isGrammarAcceptString(grammar, '{"answer": "hi"}')).toBe(true);
    expect(await Testings.isGrammarAcceptString(grammar, '{"name": "x", "arguments": {}}')).toBe(false);
  });
});
