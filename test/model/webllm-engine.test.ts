import { describe, expect, it } from 'vitest';
import type { ModelDelta, ModelProgress, ModelRequest } from '../../src/model/engine';
import { WebLLMEngine, type WebLLMEngineOptions } from '../../src/model/webllm-engine';
import type { GpuReport } from '../../src/model/webllm-gpu';
import { StandInEngine, type Recording } from './webllm-stand-in';
import { tools } from './tools-fixture';

const SMALL = 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC';
const HERMES = 'Hermes-3-Llama-3.1-8B-q4f16_1-MLC';
const gpuWithF16: GpuReport = {
  available: true,
  features: ['shader-f16'],
  shaderF16: true,
  adapter: { vendor: 'test', architecture: 'gpu', device: '', description: '', isFallbackAdapter: false },
};
const gpuWithoutF16: GpuReport = { ...gpuWithF16, features: [], shaderF16: false };

async function loaded(modelId: string, recordings: Recording[], extra: Partial<WebLLMEngineOptions> = {}) {
  const standIn = new StandInEngine(recordings);
  const engine = new WebLLMEngine({ modelId, createEngine: () => standIn, probeGpu: async () => gpuWithF16, ...extra });
  await engine.load();
  return { engine, standIn };
}

async function collect(stream: AsyncIterable<ModelDelta>): Promise<ModelDelta[]> {
  const out: ModelDelta[] = [];
  for await (const delta of stream) out.push(delta);
  return out;
}

const request: ModelRequest = {
  messages: [
    { role: 'system', content: 'You help with this page.' },
    { role: 'user', content: 'Remember milk' },
  ],
  tools,
  sampling: { temperature: 0.2, maxTokens: 256, seed: 7 },
};

describe('WebLLMEngine with a model without native tool calls', () => {
  it('sends the tools in the system prompt under a structural-tag grammar, and streams text then the call', async () => {
    const { engine, standIn } = await loaded(SMALL, [
      {
        contents: [
          'Adding it',
          ' now. <to',
          'ol_call>{"name": "add_todo", ',
          '"arguments": {"text": "milk"}}</tool_call>',
        ],
        finish: 'stop',
        usage: { prompt_tokens: 120, completion_tokens: 30 },
      },
    ]);
    const deltas = await collect(engine.generate(request));
    const sent = standIn.requests[0];
    expect(sent).toMatchObject({
      stream: true,
      stream_options: { include_usage: true },
      temperature: 0.2,
      max_tokens: 256,
      seed: 7,
    });
    expect(sent.tools).toBeUndefined();
    expect(sent.messages[0].role).toBe('system');
    expect(sent.messages[0].content).toContain('You help with this page.');
    // Qwen2.5's own tool section (its chat template's wording), listing each tool as a function.
    expect(sent.messages[0].content).toContain(
      'You are provided with function signatures within <tools></tools> XML tags:',
    );
    expect(sent.messages[0].content).toContain(
      '{"type": "function", "function": {"name": "add_todo", "description": "Add an item to the todo list on this page."',
    );
    expect(sent.max_tokens).toBe(256);
    expect(sent.response_format?.type).toBe('structural_tag');
    expect(JSON.stringify(sent.response_format?.structural_tag)).toContain('"triggers":["<tool_call>"]');

    expect(deltas).toEqual([
      { type: 'text', text: 'Adding it' },
      { type: 'text', text: ' now. ' },
      { type: 'tool-call', call: { name: 'add_todo', args: { text: 'milk' } } },
      {
        type: 'finish',
        reason: 'tool-calls',
        usage: { promptTokens: 120, completionTokens: 30 },
        raw: 'Adding it now. <tool_call>{"name": "add_todo", "arguments": {"text": "milk"}}</tool_call>',
      },
    ]);
  });

  it('uses the JSON-schema fallback when asked, and reads {"answer"} as text', async () => {
    const { engine, standIn } = await loaded(SMALL, [{ contents: ['{"answer": ', '"Done."}'], finish: 'stop' }], {
      grammar: 'json',
    });
    const deltas = await collect(engine.generate(request));
    expect(standIn.requests[0].response_format?.type).toBe('json_object');
    expect(JSON.parse(standIn.requests[0].response_format!.schema!).anyOf).toHaveLength(tools.length + 1);
    expect(deltas).toEqual([
      { type: 'text', text: 'Done.' },
      { type: 'finish', reason: 'stop', usage: undefined, raw: '{"answer": "Done."}' },
    ]);
  });

  it('sends no grammar when the step offers no tools', async () => {
    const { engine, standIn } = await loaded(SMALL, [{ contents: ['Hello'], finish: 'length' }]);
    const deltas = await collect(engine.generate({ ...request, tools: [] }));
    expect(standIn.requests[0].response_format).toBeUndefined();
    expect(deltas.at(-1)).toEqual({ type: 'finish', reason: 'length', usage: undefined, raw: 'Hello' });
    // Without sampling.maxTokens the runtime still sets a limit, from the context window.
    const { engine: other, standIn: second } = await loaded(SMALL, [{ contents: ['Hi'], finish: 'stop' }]);
    await collect(other.generate({ ...request, sampling: undefined }));
    expect(second.requests[0].max_tokens).toBe(1024);
  });

  it('turns a call to an unknown tool into an error the model can correct from', async () => {
    const { engine } = await loaded(SMALL, [
      { contents: ['<tool_call>{"name": "fly", "arguments": {}}</tool_call>'], finish: 'stop' },
    ]);
    const deltas = await collect(engine.generate(request));
    expect(deltas[0]).toMatchObject({ type: 'tool-call-error', name: 'fly' });
    expect((deltas[0] as { message: string }).message).toContain('add_todo, set_volume, get_time');
    expect(deltas.at(-1)).toMatchObject({ type: 'finish', reason: 'tool-calls' });
  });

  it('stops decoding with interruptGenerate when the signal aborts', async () => {
    const { engine, standIn } = await loaded(SMALL, [
      { contents: Array.from({ length: 200 }, () => 'word '), finish: 'stop' },
    ]);
    const controller = new AbortController();
    const deltas: ModelDelta[] = [];
    for await (const delta of engine.generate({ ...request, tools: [] }, controller.signal)) {
      deltas.push(delta);
      if (deltas.length === 3) controller.abort();
    }
    expect(standIn.interrupts).toBe(1);
    expect(deltas.at(-1)).toMatchObject({ type: 'finish', reason: 'abort' });
    expect(deltas.length).toBeLessThan(200);
  });
});

describe('WebLLMEngine with a Hermes model (native tool calls)', () => {
  it('sends tools natively, puts the instructions in the first user message, and reads calls from the last chunk', async () => {
    const { engine, standIn } = await loaded(HERMES, [
      {
        contents: [
          '[{"name": "add_todo", ',
          '"arguments": {"text": "milk"}}, {"name": "set_volume", "arguments": {"level": 2}}]',
        ],
        toolCalls: [
          { name: 'add_todo', arguments: '{"text": "milk"}' },
          { name: 'set_volume', arguments: '{"level": 2}' },
        ],
        finish: 'tool_calls',
        usage: { prompt_tokens: 300, completion_tokens: 40 },
      },
    ]);
    expect(engine.info.nativeToolCalls).toBe(true);
    const deltas = await collect(engine.generate(request));
    const sent = standIn.requests[0];
    expect(sent.tool_choice).toBe('auto');
    expect(sent.tools?.map((t) => t.function.name)).toEqual(['add_todo', 'set_volume', 'get_time']);
    expect(sent.response_format).toBeUndefined();
    expect(sent.messages.some((m) => m.role === 'system')).toBe(false);
    expect(sent.messages[0]).toEqual({ role: 'user', content: 'You help with this page.\n\nRemember milk' });
    expect(deltas).toEqual([
      { type: 'tool-call', call: { name: 'add_todo', args: { text: 'milk' } } },
      { type: 'tool-call', call: { name: 'set_volume', args: { level: 2 } } },
      {
        type: 'finish',
        reason: 'tool-calls',
        usage: { promptTokens: 300, completionTokens: 40 },
        raw: '[{"name": "add_todo", "arguments": {"text": "milk"}}, {"name": "set_volume", "arguments": {"level": 2}}]',
      },
    ]);
  });

  it('writes earlier calls back as the JSON the model produced, and tool results as tool messages', async () => {
    const { engine, standIn } = await loaded(HERMES, [{ contents: ['[]'], toolCalls: [], finish: 'tool_calls' }]);
    await collect(
      engine.generate({
        ...request,
        messages: [
          ...request.messages,
          { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'get_time', args: {} }] },
          { role: 'tool', toolCallId: 'c1', name: 'get_time', content: '12:00' },
        ],
      }),
    );
    expect(standIn.requests[0].messages.slice(1)).toEqual([
      { role: 'assistant', content: '[{"name":"get_time","arguments":{}}]' },
      { role: 'tool', tool_call_id: 'c1', content: '12:00' },
    ]);
  });

  it('answers unreadable Hermes output with a tool-call error instead of failing the run', async () => {
    const { engine } = await loaded(HERMES, [
      { contents: ['[{"name": "add_todo", "argu'], finish: 'stop', throwName: 'ToolCallOutputParseError' },
    ]);
    const deltas = await collect(engine.generate(request));
    expect(deltas[0]).toMatchObject({ type: 'tool-call-error', raw: '[{"name": "add_todo", "argu' });
    expect(deltas.at(-1)).toMatchObject({ type: 'finish', reason: 'tool-calls' });
  });

  it('can be told to use the prompt protocol instead', async () => {
    const { engine } = await loaded(HERMES, [], { nativeToolCalls: false });
    expect(engine.info.nativeToolCalls).toBe(false);
  });
});

describe('WebLLMEngine loading', () => {
  it("reports progress with byte counts parsed from web-llm's text", async () => {
    const progress: ModelProgress[] = [];
    const standIn = new StandInEngine();
    standIn.onReload = async (self) => {
      self.progress!({
        progress: 0.25,
        timeElapsed: 3,
        text: 'Fetching param cache[5/20]: 100MB fetched. 25% completed, 3 secs elapsed.',
      });
      self.progress!({ progress: 1, timeElapsed: 9, text: 'Finish loading on WebGPU - test' });
    };
    const engine = new WebLLMEngine({ modelId: SMALL, createEngine: () => standIn, probeGpu: async () => gpuWithF16 });
    await engine.load((p) => progress.push(p));
    expect(progress[0].text).toContain('Found WebGPU');
    expect(progress[1]).toEqual({
      progress: 0.25,
      text: expect.stringContaining('100MB'),
      loadedBytes: 100 * 1024 * 1024,
      totalBytes: 400 * 1024 * 1024,
    });
    expect(progress[2]).toEqual({ progress: 1, text: 'Finish loading on WebGPU - test' });
    expect(engine.info.contextWindow).toBe(4096);
  });

  it('fails fast on an unknown id, naming the closest ids, without creating an engine', async () => {
    let created = false;
    const engine = new WebLLMEngine({
      modelId: 'Qwen2.5-0.5B-Instruct-q4f32-MLC',
      createEngine: () => ((created = true), new StandInEngine()),
      probeGpu: async () => gpuWithF16,
    });
    const error = await engine.load().catch((e) => e);
    expect(error).toMatchObject({ code: 'model-not-found' });
    expect(error.message).toContain('Qwen2.5-0.5B-Instruct-q4f32_1-MLC');
    expect(created).toBe(false);
  });

  it('fails fast without a GPU adapter, before any download', async () => {
    let created = false;
    const engine = new WebLLMEngine({
      modelId: SMALL,
      createEngine: () => ((created = true), new StandInEngine()),
      probeGpu: async () => ({ available: false, reason: 'no-adapter', features: [], shaderF16: false }),
    });
    const error = await engine.load().catch((e) => e);
    expect(error).toMatchObject({ code: 'webgpu-unavailable' });
    expect(error.message).toContain('--enable-unsafe-webgpu');
    expect(error.message).toContain('scripted');
    expect(created).toBe(false);
  });

  it('suggests the q4f32 model when an f16 model meets a GPU without shader-f16', async () => {
    const engine = new WebLLMEngine({
      modelId: 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC',
      createEngine: () => new StandInEngine(),
      probeGpu: async () => gpuWithoutF16,
    });
    const error = await engine.load().catch((e) => e);
    expect(error).toMatchObject({ code: 'shader-f16-missing' });
    expect(error.message).toContain('Qwen2.5-0.5B-Instruct-q4f32_1-MLC');
  });

  it('aborts a load with unload()', async () => {
    const standIn = new StandInEngine();
    let release!: () => void;
    standIn.onReload = () => new Promise<void>((resolve) => (release = resolve));
    standIn.unload = async () => {
      standIn.unloads += 1;
      release(); // web-llm's reload() returns quietly once unload() aborts it
    };
    const controller = new AbortController();
    const engine = new WebLLMEngine({ modelId: SMALL, createEngine: () => standIn, probeGpu: async () => gpuWithF16 });
    const loading = engine.load(undefined, controller.signal).catch((e) => e);
    await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    expect(await loading).toMatchObject({ code: 'aborted' });
    expect(standIn.unloads).toBe(1);
  });

  it('maps a device lost during load to device-lost', async () => {
    const standIn = new StandInEngine();
    standIn.onReload = async () => {
      const error = new Error('The WebGPU device was lost while loading the model.');
      error.name = 'DeviceLostError';
      throw error;
    };
    const engine = new WebLLMEngine({ modelId: SMALL, createEngine: () => standIn, probeGpu: async () => gpuWithF16 });
    const error = await engine.load().catch((e) => e);
    expect(error).toMatchObject({ code: 'device-lost' });
    expect(error.message).toContain('smaller model');
  });
});
