/**
 * The grammar we send to web-llm, compiled for real by web-xgrammar (the
 * grammar engine web-llm embeds, here in Chromium with its wasm), and checked
 * character by character against model outputs.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Grammar, Testings } from '@mlc-ai/web-xgrammar';
import { jsonResponseFormat, structuralTagResponseFormat } from '../../src/model/tool-grammar';
import { tools } from './tools-fixture';

const call = (name: string, args: unknown) => `<tool_call>${JSON.stringify({ name, arguments: args })}</tool_call>`;

describe('the structural-tag grammar (what web-llm receives for a model without native calls)', () => {
  let grammar: Grammar;
  const accepts = (output: string) => Testings.isGrammarAcceptString(grammar, output);

  beforeAll(async () => {
    const format = structuralTagResponseFormat(tools);
    grammar = await Grammar.fromStructuralTag(format.structural_tag);
  });

  it('lets the model answer in free text', async () => {
    expect(await accepts('It is noon. No tool needed.')).toBe(true);
  });

  it('accepts a call to a declared tool with arguments under its schema', async () => {
    expect(await accepts(call('add_todo', { text: 'buy milk' }))).toBe(true);
    expect(await accepts(call('add_todo', { text: 'buy milk', due: 'Friday' }))).toBe(true);
    expect(await accepts('<tool_call>{"name": "set_volume", "arguments": {"level": 3}}</tool_call>')).toBe(true);
    expect(await accepts(call('get_time', {}))).toBe(true);
  });

  it('accepts text around calls and several calls in one turn', async () => {
    expect(
      await accepts(`Sure. ${call('add_todo', { text: 'milk' })}\n${call('set_volume', { level: 1 })} Done.`),
    ).toBe(true);
  });

  it('rejects a call to a tool that was not declared', async () => {
    expect(await accepts(call('delete_everything', {}))).toBe(false);
  });

  it('rejects a call missing a required argument', async () => {
    expect(await accepts(call('add_todo', { due: 'Friday' }))).toBe(false);
  });

  it('rejects an argument of the wrong type', async () => {
    expect(await accepts(call('set_volume', { level: 'loud' }))).toBe(false);
    expect(await accepts(call('set_volume', { level: 2.5 }))).toBe(false);
  });

  it('rejects an argument the schema does not declare', async () => {
    expect(await accepts(call('add_todo', { text: 'milk', priority: 1 }))).toBe(false);
  });

  it('rejects trailing junk inside the call', async () => {
    expect(await accepts('<tool_call>{"name": "get_time", "arguments": {}} thanks</tool_call>')).toBe(false);
    expect(await accepts('<tool_call>{"name": "get_time", "arguments": {}}')).toBe(false);
  });
});

describe('the JSON-schema fallback (json_object with a union of calls and an answer)', () => {
  let grammar: Grammar;
  const accepts = (output: string) => Testings.isGrammarAcceptString(grammar, output);

  beforeAll(async () => {
    const format = jsonResponseFormat(tools);
    grammar = await Grammar.fromJSONSchema(format.schema);
  });

  it('accepts a call or a final answer', async () => {
    expect(await accepts('{"name": "add_todo", "arguments": {"text": "milk"}}')).toBe(true);
    expect(await accepts('{"answer": "It is noon."}')).toBe(true);
  });

  it('rejects a wrong tool name, a missing field, a wrong type and trailing junk', async () => {
    expect(await accepts('{"name": "fly", "arguments": {}}')).toBe(false);
    expect(await accepts('{"name": "add_todo", "arguments": {}}')).toBe(false);
    expect(await accepts('{"name": "set_volume", "arguments": {"level": "max"}}')).toBe(false);
    expect(await accepts('{"answer": "ok"} and more')).toBe(false);
  });
});
