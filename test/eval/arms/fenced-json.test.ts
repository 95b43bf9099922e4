// Arm fenced-json reproduces the AI SDK's in-browser providers: the same messages reach the model and
// the same calls come out. Checked against @browser-ai/web-llm itself (its doGenerate, on an engine
// that records the request and replies with given text: web-llm's MLC weights cannot run here).
import { WebLLMLanguageModel } from '@browser-ai/web-llm';
import { describe, expect, test } from 'vitest';
import { fencedJsonMessages } from '../../../eval/arms/fenced-json-messages';
import { readFencedCalls } from '../../../eval/arms/fenced-json-read';
import type { PromptTool } from '../../../eval/arms/fenced-json-prompt';

const parameters = {
  type: 'object',
  properties: { city: { type: 'string', description: 'The city.' }, days: { type: 'integer' } },
  required: ['city'],
  additionalProperties: false,
};
const tools = [
  { name: 'get_weather', description: 'Weather for a city.', parameters },
  { name: 'no_description', description: '', parameters: { type: 'object', properties: {} } },
] satisfies PromptTool[];

/** The provider on an engine that records what it is sent and answers `reply`. */
async function provider(reply: string) {
  const sent: { messages?: unknown } = {};
  const model = new WebLLMLanguageModel('Qwen2.5-0.5B-Instruct-q4f32_1-MLC') as unknown as Record<string, unknown>;
  model.availability = async () => 'available';
  model.isInitialized = true;
  model.engine = {
    chat: {
      completions: {
        create: async (request: { messages: unknown }) => {
          sent.messages = request.messages;
          return { choices: [{ message: { content: reply } }], usage: { prompt_tokens: 1, completion_tokens: 1 } };
        },
      },
    },
    interruptGenerate: async () => undefined,
  };
  const result = await (model as unknown as WebLLMLanguageModel).doGenerate({
    prompt: [
      { role: 'system', content: 'You help with the weather.' },
      { role: 'user', content: [{ type: 'text', text: 'Weather in Paris for 3 days?' }] },
    ],
    tools: tools.map((tool) => ({
      type: 'function' as const,
      name: tool.name,
      description: tool.description || undefined,
      inputSchema: tool.parameters as never,
    })),
  });
  const calls = result.content.flatMap((part) =>
    part.type === 'tool-call' ? [{ name: part.toolName, args: JSON.parse(part.input) }] : [],
  );
  return { messages: sent.messages, calls };
}

const ours = [
  { role: 'system' as const, content: 'You help with the weather.' },
  { role: 'user' as const, content: 'Weather in Paris for 3 days?' },
];

describe('fenced-json, as @browser-ai/web-llm 2.1.7 does it', () => {
  test('the model is sent the same messages: the system text, the tools as JSON and how to call them', async () => {
    const { messages } = await provider('Sunny.');
    expect(fencedJsonMessages(ours, tools)).toEqual(messages);
  });

  test.each([
    [
      'a fenced call',
      'Let me check.\n```tool_call\n{"name": "get_weather", "arguments": {"city": "Paris", "days": 3}}\n```',
    ],
    [
      'the first of two fences',
      '```tool_call\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n```\n```tool_call\n{"name": "get_weather", "arguments": {"city": "Rome"}}\n```',
    ],
    [
      'a list in one fence',
      '```tool_call\n[{"name": "get_weather", "arguments": {"city": "Oslo"}}, {"name": "no_description"}]\n```',
    ],
    [
      'one call per line',
      '```tool_call\n{"name": "get_weather", "arguments": {"city": "Lima"}}\n{"name": "no_description", "arguments": {}}\n```',
    ],
    [
      'parameters for arguments, and arguments as a string',
      '```tool-call\n{"name": "get_weather", "parameters": "{\\"city\\": \\"Kyiv\\"}"}\n```',
    ],
    ['a <tool_call> tag', '<tool_call>{"name": "get_weather", "arguments": {"city": "Bern"}}</tool_call>'],
    ['a pythonic call, values as strings', '[get_weather(city="Nice", days=2)]'],
    [
      'a fence that is not JSON, then one that is',
      '```tool_call\nget_weather(Paris)\n```\n```tool_call\n{"name": "get_weather", "arguments": {"city": "Turin"}}\n```',
    ],
    ['no call', 'It is sunny in Paris.'],
    ['a fence left open', '```tool_call\n{"name": "get_weather", "arguments": {"city": "Pa'],
  ])('%s: the same first call', async (_, reply) => {
    const { calls } = await provider(reply);
    expect(readFencedCalls(reply).calls.slice(0, 1)).toEqual(calls);
  });

  test('what they drop silently is kept as unreadable: a fence with no call in it, a fence left open', () => {
    expect(readFencedCalls('```tool_call\nget_weather(Paris)\n```').unreadable).toHaveLength(1);
    expect(readFencedCalls('```tool_call\n{"name": "get_weather", "arguments": {"city": "Pa').unreadable).toHaveLength(
      1,
    );
    expect(readFencedCalls('```tool_call\n{"name": "get_weather"}\n```').unreadable).toEqual([]);
  });
});
