import { describe, expect, it } from 'vitest';
import { functionCallingModelIds } from '@mlc-ai/web-llm';
import { createEngine } from '../../src/model/engines/create-engine';
import { NATIVE_TOOL_CALLING_IDS } from '../../src/model/engines/webllm/native-models';
import type { ModelDelta, ModelProgress, ModelRequest } from '../../src/model/engine';
import { WebLLMEngine, type WebLLMEngineOptions } from '../../src/model/engines/webllm/webllm-engine';
import type { GpuReport } from '../../src/model/engines/webllm/webllm-gpu';
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
      // Named as soon as its name is written, read whole when the model stops.
      { type: 'tool-call-start', name: 'add_todo' },
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

describe('WebLLMEngine, output that falls into a loop', () => {
  it('is stopped with interruptGenerate and ends as at the token limit, with a repeating-output notice', async () => {
    const { engine, standIn } = await loaded(SMALL, [
      { contents: ['Sure: ', ...Array.from({ length: 400 }, () => 'bread, eggs, milk, ')], finish: 'length' },
    ]);
    const deltas = await collect(engine.generate({ ...request, tools: [] }));
    expect(standIn.interrupts).toBe(1);
    expect(deltas.filter((delta) => delta.type === 'notice')).toEqual([
      expect.objectContaining({ code: 'repeating-output', message: expect.stringContaining('over and over') }),
    ]);
    const finish = deltas.at(-1) as Extract<ModelDelta, { type: 'finish' }>;
    expect(finish.reason).toBe('length');
    // Stopped within a few repeats, not after the 400 the model would have written.
    expect(finish.raw!.length).toBeLessThan(20 * 'bread, eggs, milk, '.length);
  });

  it('runs the calls of a turn that cycles through them once each, and ends it as a turn of calls', async () => {
    const milk = '<tool_call>{"name": "add_todo", "arguments": {"text": "milk"}}</tool_call>\n';
    const eggs = '<tool_call>{"name": "add_todo", "arguments": {"text": "eggs"}}</tool_call>\n';
    const { engine, standIn } = await loaded(SMALL, [
      { contents: Array.from({ length: 40 }, (_, i) => (i % 2 ? eggs : milk)), finish: 'length' },
    ]);
    const deltas = await collect(engine.generate(request));
    expect(standIn.interrupts).toBe(1);
    expect(deltas.filter((delta) => delta.type === 'tool-call' || delta.type === 'tool-call-error')).toEqual([
      { type: 'tool-call', call: { name: 'add_todo', args: { text: 'milk' } } },
      { type: 'tool-call', call: { name: 'add_todo', args: { text: 'eggs' } } },
    ]);
    expect(deltas.at(-1)).toMatchObject({ type: 'finish', reason: 'tool-calls' });
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

describe('each family gets its own format', () => {
  const families: [string, string][] = [
    ['Qwen2.5-0.5B-Instruct-q4f32_1-MLC', 'hermes'],
    ['Qwen2.5-Coder-1.5B-Instruct-q4f32_1-MLC', 'hermes'],
    ['Hermes-3-Llama-3.2-3B-q4f32_1-MLC', 'hermes'],
    ['Qwen3-0.6B-q4f32_1-MLC', 'qwen3'],
    ['Qwen3.5-0.8B-q4f32_1-MLC', 'qwen-xml'],
    ['SmolLM2-360M-Instruct-q4f32_1-MLC', 'smollm2'],
    ['Llama-3.2-1B-Instruct-q4f32_1-MLC', 'llama3-json'],
    ['Phi-4-mini-instruct-q4f32_1-MLC', 'phi4-functools'],
    ['gemma-2-2b-it-q4f32_1-MLC', 'gemma-tool-code'],
    ['gemma3-1b-it-q4f16_1-MLC', 'gemma-tool-code'],
    ['gemma-4-E2B-it-q4f32_1-MLC', 'gemma4'],
    ['Ministral-3-3B-Instruct-2512-BF16-q4f32_1-MLC', 'mistral'],
    ['Phi-3.5-mini-instruct-q4f32_1-MLC', 'generic-json'],
    ['TinyLlama-1.1B-Chat-v1.0-q4f32_1-MLC', 'generic-json'],
    ['OLMo-2-0425-1B-Instruct-q4f32_1-MLC', 'generic-json'],
    ['stablelm-2-zephyr-1_6b-q4f32_1-MLC', 'generic-json'],
  ];

  it('picks the format from the web-llm id, and model.toolFormat overrides it', async () => {
    for (const [id, format] of families) {
      const engine = new WebLLMEngine({ modelId: id, createEngine: () => new StandInEngine() });
      expect(engine.info.toolFormat, id).toBe(format);
    }
    const forced = new WebLLMEngine({ modelId: SMALL, toolFormat: 'gemma4', createEngine: () => new StandInEngine() });
    expect(forced.info.toolFormat).toBe('gemma4');
    expect(() => new WebLLMEngine({ modelId: SMALL, toolFormat: 'hermes2' as never })).toThrow(
      /model.toolFormat "hermes2" is not a tool-call format; use one of: hermes, qwen3/,
    );
  });

  it('keeps the prompt byte-identical across steps: allowedTools and toolChoice change only the grammar', async () => {
    for (const [id] of families) {
      const variants: Partial<ModelRequest>[] = [
        {},
        { allowedTools: ['add_todo'] },
        { toolChoice: 'required' },
        { toolChoice: { name: 'get_time' } },
        { toolChoice: 'none' },
      ];
      const { engine, standIn } = await loaded(
        id,
        variants.map(() => ({ contents: ['ok'], finish: 'stop' as const })),
      );
      for (const variant of variants) await collect(engine.generate({ ...request, ...variant }));
      const systems = standIn.requests.map((sent) => sent.messages[0].content);
      expect(new Set(systems).size, id).toBe(1);
      const grammars = standIn.requests.map((sent) => JSON.stringify(sent.response_format ?? null));
      expect(new Set(grammars).size, id).toBe(variants.length);
      expect(standIn.requests.at(-1)!.response_format, `${id}: 'none' sends no grammar`).toBeUndefined();
    }
  });

  it('replays an earlier turn as the model generated it, without its end-of-turn token', async () => {
    const { engine, standIn } = await loaded('Qwen3-0.6B-q4f32_1-MLC', [{ contents: ['ok'], finish: 'stop' }]);
    const raw =
      '<think>\nTime?\n</think>\n\n<tool_call>\n{"name": "get_time", "arguments": {}}\n</tool_call><|im_end|>';
    await collect(
      engine.generate({
        ...request,
        messages: [
          ...request.messages,
          { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'get_time', args: {} }], raw },
          { role: 'tool', toolCallId: 'c1', name: 'get_time', content: '12:00' },
        ],
      }),
    );
    expect(standIn.requests[0].messages.slice(2)).toEqual([
      { role: 'assistant', content: raw.replace('<|im_end|>', '') },
      { role: 'user', content: '<tool_response>\n12:00\n</tool_response>' },
    ]);
  });

  it('without the raw turn, writes the call back the way the family writes it', async () => {
    const history = (id: string) =>
      loaded(id, [{ contents: ['ok'], finish: 'stop' }]).then(async ({ engine, standIn }) => {
        await collect(
          engine.generate({
            ...request,
            messages: [
              ...request.messages,
              { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'set_volume', args: { level: 2 } }] },
              { role: 'tool', toolCallId: 'c1', name: 'set_volume', content: 'ok' },
            ],
          }),
        );
        return standIn.requests[0].messages.slice(2).map((message) => message.content);
      });
    expect(await history('Qwen2.5-0.5B-Instruct-q4f32_1-MLC')).toEqual([
      '<tool_call>\n{"name": "set_volume", "arguments": {"level": 2}}\n</tool_call>',
      '<tool_response>\nok\n</tool_response>',
    ]);
    expect(await history('Llama-3.2-1B-Instruct-q4f32_1-MLC')).toEqual([
      '{"name": "set_volume", "parameters": {"level": 2}}',
      'ok',
    ]);
    expect(await history('Qwen3.5-0.8B-q4f32_1-MLC')).toEqual([
      '<tool_call>\n<function=set_volume>\n<parameter=level>\n2\n</parameter>\n</function>\n</tool_call>',
      '<tool_response>\nok\n</tool_response>',
    ]);
    expect(await history('gemma-4-E2B-it-q4f32_1-MLC')).toEqual([
      '<|tool_call>call:set_volume{level:2}<tool_call|>',
      '<|tool_response>response:set_volume{value:<|"|>ok<|"|>}<tool_response|>',
    ]);
    expect(await history('Ministral-3-3B-Instruct-2512-BF16-q4f32_1-MLC')).toEqual([
      '[TOOL_CALLS]set_volume[ARGS]{"level":2}',
      '[TOOL_RESULTS]ok[/TOOL_RESULTS]',
    ]);
  });

  it('says in a notice when a tool schema cannot be held by the grammar, and still reads its calls', async () => {
    const lookahead = {
      ...tools[0],
      name: 'code',
      parameters: { type: 'object', properties: { c: { type: 'string', pattern: '^(?!x)' } } },
    };
    const { engine, standIn } = await loaded(SMALL, [
      { contents: ['<tool_call>\n{"name": "code", "arguments": {"c": "y"}}\n</tool_call>'], finish: 'stop' },
    ]);
    const deltas = await collect(engine.generate({ ...request, tools: [lookahead, ...tools] }));
    expect(deltas[0]).toMatchObject({
      type: 'notice',
      code: 'grammar-fallback',
      message: expect.stringContaining('code ('),
    });
    expect(deltas).toContainEqual({ type: 'tool-call', call: { name: 'code', args: { c: 'y' } } });
    expect(JSON.stringify(standIn.requests[0].response_format)).toContain(
      '"begin":"<tool_call>\\n{\\"name\\": \\"code\\", \\"arguments\\": ","content":{"type":"json_schema","json_schema":{"type":"object"}}',
    );
  });
});

describe('web-llm native tool calling', () => {
  it("is one list, the same as web-llm's functionCallingModelIds", () => {
    expect([...NATIVE_TOOL_CALLING_IDS].sort()).toEqual([...functionCallingModelIds].sort());
    expect(createEngine({ engine: 'webllm', modelId: HERMES }).info.nativeToolCalls).toBe(true);
    expect(createEngine({ engine: 'webllm', modelId: 'Hermes-3-Llama-3.2-3B-q4f32_1-MLC' }).info).toMatchObject({
      nativeToolCalls: false,
      toolFormat: 'hermes',
    });
  });

  it("passes a named tool choice as web-llm's tool_choice, and answers without tools when none may be called", async () => {
    const { engine, standIn } = await loaded(HERMES, [
      { contents: ['[]'], toolCalls: [], finish: 'tool_calls' },
      { contents: ['Fine.'], finish: 'stop' },
    ]);
    await collect(engine.generate({ ...request, toolChoice: { name: 'get_time' } }));
    expect(standIn.requests[0].tool_choice).toEqual({ type: 'function', function: { name: 'get_time' } });
    await collect(engine.generate({ ...request, toolChoice: 'none' }));
    expect(standIn.requests[1].tools).toBeUndefined();
  });
});
