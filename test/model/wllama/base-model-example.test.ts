// A base model (a GGUF without a chat template) is shown a worked example before the step: in every family's
// own format, before the step's tools and question, never among the calls the step allows, and the same from
// step to step so that llama.cpp's prefix cache keeps it. (What it does to the real Gemma 3 270M's calls is
// measured in test/real-model/model/wllama/gemma-3-270m.browser.test.ts and on BFCL in
// test/real-model/eval/gguf-run.browser.test.ts.)
import { describe, expect, it } from 'vitest';
import type { ModelRequest } from '../../../src/model/engine';
import type { ToolDeclaration } from '../../../src/tools/declaration';
import { exampleText, exampleTurns } from '../../../src/model/base-model-example';
import { measureContext } from '../../../src/model/context-usage';
import type { ModelInfo } from '../../../src/model/engine';
import { TOOL_FORMATS } from '../../../src/model/formats/registry';
import { ToolCallStream } from '../../../src/model/readers/stream-tool-calls';
import { toWllamaRequest, type WllamaStyle } from '../../../src/model/engines/wllama/wllama-request';
import { chatTemplate, type TemplateName } from '../../../src/model/engines/wllama/wllama-template';
import { markupPrompt } from '../../../src/model/engines/wllama/wllama-prompt';
import type { ToolFormat } from '../../../src/model/formats/tool-format';
import { OUTPUT_VOCABULARY } from '../../../src/model/formats/output-vocabulary';

const setAlarm = {
  name: 'set_alarm',
  description: 'Sets an alarm.',
  parameters: { type: 'object', properties: { time: { type: 'string' } }, required: ['time'] },
} as unknown as ToolDeclaration;
const question = 'Wake me at seven, please.';
const request: ModelRequest = {
  messages: [
    { role: 'system', content: 'You are the clock page.' },
    { role: 'user', content: question },
  ],
  tools: [setAlarm],
};

/** A step written in our markup of `markup`, for a base model (the example) or not. */
const styleOf = (format: ToolFormat, markup: TemplateName, base = false): WllamaStyle => ({
  format,
  prompt: markupPrompt(chatTemplate(markup), format, { base }),
  contextWindow: 4096,
  temperature: 0,
});

describe('a base model’s prompt opens with a worked example', () => {
  for (const format of Object.values(TOOL_FORMATS)) {
    const style: WllamaStyle = styleOf(format, 'chatml');
    const baseStyle: WllamaStyle = styleOf(format, 'chatml', true);

    it(`${format.name}: the example's calls are written the way the family's reader reads them`, () => {
      const turns = exampleTurns(format);
      const answer = turns.find((turn) => turn.role === 'assistant')!.content;
      const stream = new ToolCallStream({
        vocabulary: OUTPUT_VOCABULARY,
        tools: [{ ...setAlarm, name: 'example_get_weather', parameters: { type: 'object', properties: {} } }],
      });
      stream.push(answer);
      const read = stream.end();
      expect(read.errors).toEqual([]);
      expect(read.calls.map((call) => call.args)).toEqual([{ city: 'Paris' }]);
      // The conversation goes on past the results to a plain answer, and to a question no tool fits.
      expect(turns.at(-1)).toMatchObject({ role: 'assistant' });
      expect(turns.at(-1)!.content).not.toContain('example_get_weather');
    });

    it(`${format.name}: the step's system text, tools and question come after it, and only its tools are callable`, () => {
      const plain = toWllamaRequest(request, style);
      const base = toWllamaRequest(request, baseStyle);
      expect(plain.prompt).not.toContain('example_get_weather');
      const example = base.prompt.indexOf('example_get_weather');
      expect(example).toBeGreaterThan(-1);
      // The step's own part, in order, after everything of the example.
      const system = base.prompt.indexOf('You are the clock page.');
      const tool = base.prompt.indexOf('set_alarm');
      expect(base.prompt.lastIndexOf('example_get_weather')).toBeLessThan(Math.min(system, tool));
      expect(base.prompt.lastIndexOf(question)).toBeGreaterThan(Math.max(system, tool));
      expect(base.prompt.endsWith(plain.prompt.slice(plain.prompt.lastIndexOf(question)))).toBe(true);
      // The grammar and the reader allow the step's tools only: a copied example call is not a call.
      expect(base.toolNames).toEqual(['set_alarm']);
      if (base.params.grammar) expect(base.params.grammar).not.toContain('example_get_weather');
      expect(base.params.grammar).toBe(plain.params.grammar);
    });

    it(`${format.name}: each later step extends the last one's prompt, example included`, () => {
      const first = toWllamaRequest(request, baseStyle);
      const later = toWllamaRequest(
        {
          ...request,
          messages: [
            ...request.messages,
            { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'set_alarm', args: { time: '07:00' } }] },
            { role: 'tool', toolCallId: 'c1', name: 'set_alarm', content: '{"ok":true}' },
          ],
        },
        baseStyle,
      );
      expect(later.prompt.startsWith(first.prompt.slice(0, first.prompt.lastIndexOf(question)))).toBe(true);
    });
  }

  it('the example’s tool never has the name of one of the step’s tools (a copied example call would run it)', () => {
    const format = TOOL_FORMATS['gemma-tool-code'];
    const taken = new Set(['example_get_weather', 'example_get_weather_2']);
    const call = exampleTurns(format, taken)[1]!.content;
    expect(call).toContain('example_get_weather_3(city="Paris")');
    const own = { ...setAlarm, name: 'example_get_weather' };
    const plan = toWllamaRequest({ ...request, tools: [own] }, styleOf(format, 'gemma', true));
    expect(plan.prompt).toContain('example_get_weather_2(city="Paris")');
    expect(plan.prompt).not.toContain('example_get_weather(city="Paris")');
  });

  it('is counted with the tools, so the context usage and the window guard see what the model reads', () => {
    const format = TOOL_FORMATS['gemma-tool-code'];
    const info: ModelInfo = {
      engine: 'wllama',
      modelId: 'gemma-3-270m',
      label: 'Gemma 3 270M',
      contextWindow: 4096,
      nativeToolCalls: false,
      toolFormat: format.name,
    };
    const countTokens = (text: string) => text.length;
    const parts = { system: '', tools: [setAlarm], messages: [] };
    const base = measureContext({ info: { ...info, baseModel: true }, countTokens }, parts);
    const plain = measureContext({ info, countTokens }, parts);
    expect(base.tools - plain.tools).toBe(exampleText(format, [setAlarm]).length + 2);
    // That text is what the prompt holds: every turn of the example is in it.
    const prompt = toWllamaRequest(request, styleOf(format, 'gemma', true)).prompt;
    for (const turn of exampleTurns(format, new Set(['set_alarm']))) expect(prompt).toContain(turn.content);
  });

  it('a step without tools, or a model with a chat template, gets no example', () => {
    const style = styleOf(TOOL_FORMATS['gemma-tool-code'], 'gemma');
    const noTools = { ...request, tools: [] };
    expect(toWllamaRequest(noTools, styleOf(TOOL_FORMATS['gemma-tool-code'], 'gemma', true)).prompt).toBe(
      toWllamaRequest(noTools, style).prompt,
    );
    expect(toWllamaRequest(request, style).prompt).not.toContain('example_get_weather');
  });
});
