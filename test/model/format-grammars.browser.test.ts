/**
 * Every family's grammar, compiled for real by web-xgrammar (the grammar
 * engine web-llm embeds, here in Chromium with its wasm), checked against the
 * format's own writing of calls and against what it must refuse.
 */
import { describe, expect, it } from 'vitest';
import { Grammar, Testings } from '@mlc-ai/web-xgrammar';
import type { ModelToolCall, ToolChoice } from '../../src/model/engine';
import { TOOL_FORMATS } from '../../src/model/formats/registry';
import { planToolCalls } from '../../src/model/formats/tool-call-plan';
import type { ToolFormat } from '../../src/model/formats/tool-format';
import { jsonResponseFormat } from '../../src/model/tool-grammar';
import { tool, tools } from './tools-fixture';

async function grammarFor(format: ToolFormat, choice: ToolChoice = 'auto', allowedTools?: string[], list = tools) {
  const plan = planToolCalls(format, list, { toolChoice: choice, allowedTools });
  return Grammar.fromStructuralTag(plan.responseFormat!.structural_tag as never);
}

const good: ModelToolCall[] = [
  { name: 'add_todo', args: { text: 'buy milk' } },
  { name: 'add_todo', args: { text: 'call mom', due: 'Friday' } },
  { name: 'set_volume', args: { level: 3 } },
  { name: 'get_time', args: {} },
];

for (const format of Object.values(TOOL_FORMATS)) {
  describe(`the ${format.name} grammar`, () => {
    it('lets the model answer in free text', async () => {
      expect(await Testings.isGrammarAcceptString(await grammarFor(format), 'It is noon. No tool needed.')).toBe(true);
    });

    it('accepts each call as the format writes it, and the reader reads it back exactly', async () => {
      const grammar = await grammarFor(format);
      for (const call of good) {
        const written = format.writeTurn('', [call]);
        expect(await Testings.isGrammarAcceptString(grammar, written), written).toBe(true);
        const plan = planToolCalls(format, tools);
        expect(plan.read(written).calls, written).toEqual([call]);
      }
    });

    it('refuses a tool that was not declared, or that the step does not allow', async () => {
      const ghost = format.writeTurn('', [{ name: 'delete_everything', args: {} }]);
      expect(await Testings.isGrammarAcceptString(await grammarFor(format), ghost)).toBe(false);
      const notNow = format.writeTurn('', [{ name: 'get_time', args: {} }]);
      expect(await Testings.isGrammarAcceptString(await grammarFor(format, 'auto', ['add_todo']), notNow)).toBe(false);
    });

    it('refuses a missing required argument and an argument of the wrong type', async () => {
      const grammar = await grammarFor(format);
      for (const bad of [
        { name: 'add_todo', args: { due: 'Friday' } },
        { name: 'set_volume', args: { level: 'loud' } },
      ]) {
        const written = format.writeTurn('', [bad]);
        expect(await Testings.isGrammarAcceptString(grammar, written), written).toBe(false);
      }
    });

    it("'required' makes a call come first, and a named tool allows only that tool", async () => {
      const required = await grammarFor(format, 'required');
      expect(await Testings.isGrammarAcceptString(required, 'No tool for you.')).toBe(false);
      expect(await Testings.isGrammarAcceptString(required, format.writeTurn('', [good[3]]))).toBe(true);
      const named = await grammarFor(format, { name: 'set_volume' });
      expect(await Testings.isGrammarAcceptString(named, format.writeTurn('', [good[2]]))).toBe(true);
      expect(await Testings.isGrammarAcceptString(named, format.writeTurn('', [good[3]]))).toBe(false);
    });

    it("'none' and an empty allowed list send no grammar", () => {
      expect(planToolCalls(format, tools, { toolChoice: 'none' }).responseFormat).toBeUndefined();
      expect(planToolCalls(format, tools, { allowedTools: [] }).responseFormat).toBeUndefined();
    });

    it('constrains a tool whose schema xgrammar cannot compile by its name only, and says why', async () => {
      const lookbehind = tool('lookbehind', {
        type: 'object',
        properties: { code: { type: 'string', pattern: '(?<=a)b' } },
        required: ['code'],
      });
      const plan = planToolCalls(format, [lookbehind, ...tools]);
      expect(plan.relaxed.get('lookbehind')).toContain('lookaround');
      const grammar = await Grammar.fromStructuralTag(plan.responseFormat!.structural_tag as never);
      const written = format.writeTurn('', [{ name: 'lookbehind', args: { code: 'xyz' } }]);
      expect(await Testings.isGrammarAcceptString(grammar, written), written).toBe(true);
    });
  });
}

describe('the JSON-schema fallback (json_object with a union of calls and an answer)', () => {
  it('accepts a call or a final answer, and refuses a wrong tool, a missing field, a wrong type and trailing junk', async () => {
    const grammar = await Grammar.fromJSONSchema(jsonResponseFormat(tools).schema);
    const accepts = (output: string) => Testings.isGrammarAcceptString(grammar, output);
    expect(await accepts('{"name": "add_todo", "arguments": {"text": "milk"}}')).toBe(true);
    expect(await accepts('{"answer": "It is noon."}')).toBe(true);
    expect(await accepts('{"name": "fly", "arguments": {}}')).toBe(false);
    expect(await accepts('{"name": "add_todo", "arguments": {}}')).toBe(false);
    expect(await accepts('{"name": "set_volume", "arguments": {"level": "max"}}')).toBe(false);
    expect(await accepts('{"answer": "ok"} and more')).toBe(false);
  });
});
