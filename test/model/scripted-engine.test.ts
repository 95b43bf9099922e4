import { describe, expect, it } from 'vitest';
import type { ModelDelta, ModelRequest } from '../../src/model/engine';
import { createEngine } from '../../src/model/engines/create-engine';
import { tools } from './tools-fixture';

const request: ModelRequest = { messages: [{ role: 'user', content: 'hi' }], tools };

async function collect(stream: AsyncIterable<ModelDelta>): Promise<ModelDelta[]> {
  const out: ModelDelta[] = [];
  for await (const delta of stream) out.push(delta);
  return out;
}

describe('scripted engine', () => {
  it('parses raw turns with the same protocol as a local model', async () => {
    const engine = createEngine({
      engine: 'scripted',
      turns: [
        {
          raw: 'On it.\n<tool_call>{"name": "add_todo", "arguments": {"text": "milk",}}</tool_call>\n<tool_call>{"name": "nope", "arguments": {}}</tool_call>',
        },
        { raw: '<|python_tag|>{"name": "set_volume", "parameters": {"level": 3}}<|eom_id|>' },
        { raw: 'All done.' },
      ],
    });
    const first = await collect(engine.generate(request));
    expect(
      first
        .filter((d) => d.type === 'text')
        .map((d) => (d as { text: string }).text)
        .join(''),
    ).toBe('On it.\n');
    expect(first).toContainEqual({ type: 'tool-call', call: { name: 'add_todo', args: { text: 'milk' } } });
    const error = first.find((d) => d.type === 'tool-call-error') as { name: string; message: string };
    expect(error.name).toBe('nope');
    expect(error.message).toContain('add_todo, set_volume, get_time');
    // The finish carries the output exactly as the model wrote it, so later requests can replay it.
    expect(first.at(-1)).toEqual({
      type: 'finish',
      reason: 'tool-calls',
      usage: { promptTokens: expect.any(Number), completionTokens: expect.any(Number), estimated: true },
      raw: 'On it.\n<tool_call>{"name": "add_todo", "arguments": {"text": "milk",}}</tool_call>\n<tool_call>{"name": "nope", "arguments": {}}</tool_call>',
    });

    expect(await collect(engine.generate(request))).toEqual([
      { type: 'tool-call-start', name: 'set_volume' },
      { type: 'tool-call', call: { name: 'set_volume', args: { level: 3 } } },
      {
        type: 'finish',
        reason: 'tool-calls',
        usage: { promptTokens: expect.any(Number), completionTokens: expect.any(Number), estimated: true },
        raw: '<|python_tag|>{"name": "set_volume", "parameters": {"level": 3}}<|eom_id|>',
      },
    ]);
    const last = await collect(engine.generate(request));
    expect(last.map((d) => (d.type === 'text' ? d.text : '')).join('')).toBe('All done.');
    expect(last.at(-1)).toEqual({
      type: 'finish',
      reason: 'stop',
      usage: { promptTokens: expect.any(Number), completionTokens: expect.any(Number), estimated: true },
      raw: 'All done.',
    });
  });

  it('checks raw calls against the tools offered in that step', async () => {
    const engine = createEngine({
      engine: 'scripted',
      turns: [{ raw: '<tool_call>{"name": "add_todo", "arguments": {"text": "x"}}</tool_call>' }],
    });
    const deltas = await collect(engine.generate({ ...request, tools: [] }));
    expect(deltas[0]).toMatchObject({ type: 'tool-call-error', name: 'add_todo' });
  });

  it('keeps structured turns as they are', async () => {
    const engine = createEngine({
      engine: 'scripted',
      turns: [{ text: 'Hi', toolCalls: [{ id: 'c1', name: 'get_time', args: {} }] }],
    });
    expect(await collect(engine.generate(request))).toEqual([
      { type: 'text', text: 'Hi' },
      { type: 'tool-call', call: { id: 'c1', name: 'get_time', args: {} } },
      {
        type: 'finish',
        reason: 'tool-calls',
        usage: { promptTokens: expect.any(Number), completionTokens: expect.any(Number), estimated: true },
        // As the scripted engine's format (generic JSON by default) writes a turn.
        raw: 'Hi\n<tool_call>{"name": "get_time", "arguments": {}}</tool_call>',
      },
    ]);
  });

  it('continues its script after a restart from the turns the history shows it played, and only its own', async () => {
    const turns = [{ text: 'one' }, { toolCalls: [{ name: 'get_time', args: {} }] }, { text: 'three' }];
    const played = async (engine: ReturnType<typeof createEngine>) => {
      const out = await collect(engine.generate(request));
      return (out.at(-1) as { raw: string }).raw;
    };
    const first = createEngine({ engine: 'scripted', turns });
    const history = [await played(first), await played(first)].map((raw, i) => ({ raw, seq: i + 1 }) as never);
    const restarted = createEngine({ engine: 'scripted', turns });
    restarted.resume!(history);
    expect(await played(restarted)).toBe('three');
    const other = createEngine({ engine: 'scripted', turns: [{ text: 'another script' }] });
    other.resume!(history);
    expect(await played(other)).toBe('another script');
  });

  it('says how to fix a script that ran out of turns', async () => {
    const engine = createEngine({ engine: 'scripted', turns: [] });
    await expect(collect(engine.generate(request))).rejects.toMatchObject({
      code: 'script-exhausted',
      message: expect.stringContaining('Add a turn'),
    });
  });

  it('rejects options that name no engine', () => {
    expect(() => createEngine({ engine: 'gpt' } as never)).toThrow(/Unknown model engine "gpt"/);
    expect(() => createEngine({ engine: 'webllm', modelId: '' })).toThrow(/modelId/);
  });
});
