// model.grammar: false on the wllama engine: the same prompt, no grammar sent to llama.cpp, and a step
// that ends at its first call is cut where that call's block closes, wherever the chunks split it.
import { describe, expect, it } from 'vitest';
import type { ModelRequest } from '../../../src/model/engine';
import type { ToolDeclaration } from '../../../src/tools/declaration';
import { toolFormatNamed } from '../../../src/model/formats/registry';
import { toWllamaRequest } from '../../../src/model/engines/wllama/wllama-request';
import { chatTemplate } from '../../../src/model/engines/wllama/wllama-template';
import { markupPrompt } from '../../../src/model/engines/wllama/wllama-prompt';
import { checkOptions } from '../../../src/page/options-schema';

const tools = [
  {
    name: 'get_weather',
    description: 'The weather in a city.',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
] as unknown as ToolDeclaration[];
const request: ModelRequest = { messages: [{ role: 'user' as const, content: 'Weather in Oslo?' }], tools };
const style = {
  format: toolFormatNamed('gemma-tool-code'),
  prompt: markupPrompt(chatTemplate('gemma'), toolFormatNamed('gemma-tool-code'), { base: false }),
  contextWindow: 4096,
  temperature: 0,
  oneCall: true,
};

/** Feeds the output in chunks of `size` characters; returns what the engine would keep. */
function cutAtFirstCall(output: string, size: number): string {
  const end = toWllamaRequest(request, { ...style, grammar: false }).firstCallEnd!;
  let raw = '';
  for (let at = 0; at < output.length; at += size) {
    const chunk = output.slice(at, at + size);
    const stop = end(raw, chunk);
    raw += stop === undefined ? chunk : chunk.slice(0, stop);
    if (stop !== undefined) break;
  }
  return raw;
}

describe('wllama without the grammar', () => {
  it('sends the same prompt and no grammar', () => {
    const held = toWllamaRequest(request, style);
    const free = toWllamaRequest(request, { ...style, grammar: false });
    expect(held.params.grammar).toBeTruthy();
    expect(free.params.grammar).toBeUndefined();
    expect(free.params.grammar_triggers).toBeUndefined();
    expect(free.prompt).toBe(held.prompt);
  });

  it('ends a one-call step where the first call block closes, however the output is chunked', () => {
    const first = 'Let me look.\n```tool_code\nget_weather(city="Oslo")\n```';
    const output = `${first}\nAnd more:\n\`\`\`tool_code\nget_weather(city="Bergen")\n\`\`\`\n`;
    for (const size of [1, 2, 3, 5, 8, 13, output.length]) expect(cutAtFirstCall(output, size)).toBe(first);
    // A fence that opens no call is prose: the step goes on.
    const prose = '```python\nprint(1)\n```\nno call here';
    expect(cutAtFirstCall(prose, 4)).toBe(prose);
  });

  it('is refused unless true or false', () => {
    expect(() => checkOptions({ model: { engine: 'wllama', url: '/m.gguf', grammar: 'off' } } as never)).toThrow(
      /model\.grammar must be true or false/,
    );
  });
});
