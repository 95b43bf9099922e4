// The native and fenced-json arms' engine modules, called as the worker calls them (factory, then
// generate), on their scripted chat backend: what they send, and the deltas they make of the reply.
import { expect, test } from 'vitest';
import createFencedJsonEngine from '../../../eval/arms/fenced-json-engine';
import createNativeToolsEngine from '../../../eval/arms/native-tools-engine';
import { openAiMessage } from '../../../eval/arms/openai-message';
import type { ModelDelta, ModelRequest } from '../../../src/model/engine';
import type { ToolDeclaration } from '../../../src/tools/declaration';

const tool = {
  name: 'get_weather',
  description: 'Weather for a city.',
  parameters: { type: 'object', properties: { city: { type: 'string' } } },
} as unknown as ToolDeclaration;
const request: ModelRequest = {
  messages: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Weather in Paris and Rome?' },
  ],
  tools: [tool],
};

async function deltas(engine: { generate: (r: ModelRequest) => AsyncIterable<ModelDelta> }): Promise<ModelDelta[]> {
  const out: ModelDelta[] = [];
  for await (const delta of engine.generate(request)) out.push(delta);
  return out;
}

test('native: every tool call comes through with its arguments parsed; arguments that are not JSON are unreadable', async () => {
  const engine = await createNativeToolsEngine({
    backend: {
      kind: 'scripted',
      reply: {
        content: '',
        toolCalls: [
          { name: 'get_weather', arguments: '{"city": "Paris"}' },
          { name: 'get_weather', arguments: '{"city": "Ro' },
          { name: 'get_weather', arguments: '' },
        ],
      },
    },
  });
  const out = await deltas(engine);
  expect(out.filter((d) => d.type !== 'finish')).toEqual([
    { type: 'tool-call', call: { name: 'get_weather', args: { city: 'Paris' } } },
    { type: 'tool-call-error', name: 'get_weather', raw: '{"city": "Ro', message: 'The arguments are not JSON.' },
    { type: 'tool-call', call: { name: 'get_weather', args: {} } },
  ]);
  expect(out.at(-1)).toMatchObject({
    type: 'finish',
    reason: 'tool-calls',
    usage: { promptTokens: expect.any(Number) },
  });
});

test('fenced-json: the first call only, the text around it, and a block with no call as unreadable', async () => {
  const engine = await createFencedJsonEngine({
    backend: {
      kind: 'scripted',
      reply: {
        content:
          'Checking.\n```tool_call\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n```\n' +
          '```tool_call\n{"name": "get_weather", "arguments": {"city": "Rome"}}\n```\n```tool_call\nnot json\n```',
      },
    },
  });
  const out = await deltas(engine);
  expect(out.filter((d) => d.type !== 'finish')).toEqual([
    { type: 'text', text: 'Checking.' },
    { type: 'tool-call', call: { name: 'get_weather', args: { city: 'Paris' } } },
    { type: 'tool-call-error', raw: '```tool_call\nnot json\n```', message: expect.any(String) },
  ]);
});

test('fenced-json: plain text is an answer with no call', async () => {
  const engine = await createFencedJsonEngine({ backend: { kind: 'scripted', reply: { content: 'Sunny in both.' } } });
  expect(await deltas(engine)).toMatchObject([
    { type: 'text', text: 'Sunny in both.' },
    { type: 'finish', reason: 'stop' },
  ]);
});

test('native: a conversation goes to the runtime in OpenAI’s form, its calls on the assistant turn and each result answering its call', () => {
  const history: ModelRequest['messages'] = [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Put milk on my list' },
    {
      role: 'assistant',
      content: '',
      toolCalls: [{ id: 'call-1', name: 'add_todo', args: { text: 'milk' } }],
      raw: '<tool_call>…',
    },
    { role: 'tool', content: '{"id":"t1"}', toolCallId: 'call-1', name: 'add_todo' },
    { role: 'assistant', content: 'Added milk.' },
  ];
  expect(history.map(openAiMessage)).toEqual([
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Put milk on my list' },
    { role: 'assistant', content: '', toolCalls: [{ id: 'call-1', name: 'add_todo', arguments: '{"text":"milk"}' }] },
    { role: 'tool', content: '{"id":"t1"}', toolCallId: 'call-1' },
    { role: 'assistant', content: 'Added milk.' },
  ]);
});
