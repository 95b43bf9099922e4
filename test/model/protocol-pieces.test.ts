import { describe, expect, it } from 'vitest';
import { parseLiteral } from '../../src/model/readers/literal';
import { ToolCallStream, type StreamPiece } from '../../src/model/readers/stream-tool-calls';
import { describeTools } from '../../src/model/tool-prompt';
import { closestIds, f32Alternative, toAgentError } from '../../src/model/engines/webllm/webllm-errors';
import { parseProgress } from '../../src/model/engines/webllm/webllm-progress';
import { estimateTokens } from '../../src/model/token-estimate';
import { tools } from './tools-fixture';
import { OUTPUT_VOCABULARY } from '../../src/model/formats/output-vocabulary';

const shownText = (pieces: StreamPiece[]) => pieces.map((p) => ('text' in p ? p.text : '')).join('');

describe('the tool section of the system prompt', () => {
  it('names each tool with its description, when to use it and its argument schema, and the call format', () => {
    const prompt = describeTools([{ ...tools[0], whenToUse: 'When the user asks to remember a task.' }, tools[1]]);
    expect(prompt).toContain('- add_todo: Add an item to the todo list on this page.');
    expect(prompt).toContain('Use when: When the user asks to remember a task.');
    expect(prompt).toContain('"required":["text"]');
    expect(prompt).toContain('<tool_call>{"name": "<tool name>", "arguments": {<arguments as JSON>}}</tool_call>');
    expect(prompt).toContain('several calls');
    expect(prompt).not.toContain('additionalProperties');
    expect(describeTools([])).toBe('');
  });
});

describe('streaming text while holding back calls', () => {
  it('shows text as it comes and never shows a call, even split across chunks', () => {
    const stream = new ToolCallStream({ vocabulary: OUTPUT_VOCABULARY, tools });
    const shown = ['Sure', ', one moment <', 'tool', '_call>{"name": "get_time", "arguments": {}}</tool_call>']
      .map((c) => shownText(stream.push(c)))
      .join('');
    expect(shown).toBe('Sure, one moment ');
    expect(stream.end()).toEqual({ text: '', reasoning: '', calls: [{ name: 'get_time', args: {} }], errors: [] });
  });

  it('releases a "<" that turned out not to start a marker', () => {
    const stream = new ToolCallStream({ vocabulary: OUTPUT_VOCABULARY, tools });
    expect(shownText(stream.push('a <'))).toBe('a ');
    expect(shownText(stream.push('b'))).toBe('<b');
  });

  it('holds an answer under the JSON fallback until it can be read', () => {
    const stream = new ToolCallStream({ vocabulary: OUTPUT_VOCABULARY, tools, holdAll: true });
    expect(stream.push('{"answer": "Hi')).toEqual([]);
    expect(stream.push('"}')).toEqual([]);
    expect(stream.end().text).toBe('Hi');
  });
});

describe('lenient JSON', () => {
  it('leaves valid JSON alone and reads what small models get wrong', () => {
    expect(parseLiteral('{"a": "it\'s, [fine]"}')).toMatchObject({ ok: true, value: { a: "it's, [fine]" } });
    expect(parseLiteral("{'a': [1, 2,], 'b': True,}")).toMatchObject({ ok: true, value: { a: [1, 2], b: true } });
    expect(parseLiteral('{"a": "line\nbreak"}')).toMatchObject({ ok: true, value: { a: 'line\nbreak' } });
    expect(parseLiteral('{"a": "tab\there"}')).toMatchObject({ ok: true, value: { a: 'tab\there' } });
    expect(parseLiteral('{{{ ]]')).toMatchObject({ ok: false });
  });

  it('never closes what the model left open: output that stopped early is cut off, not repaired', () => {
    expect(parseLiteral('{"a": {"b": [1, 2')).toMatchObject({ ok: false, cutOff: true });
    expect(parseLiteral('{"a": "mil')).toMatchObject({ ok: false, cutOff: true });
  });
});

describe('load progress', () => {
  it("reads byte counts out of web-llm's progress text", () => {
    expect(
      parseProgress({
        progress: 0.5,
        text: 'Fetching param cache[10/20]: 300MB fetched. 50% completed, 12 secs elapsed.',
      }),
    ).toEqual({
      progress: 0.5,
      text: 'Fetching param cache[10/20]: 300MB fetched. 50% completed, 12 secs elapsed.',
      loadedBytes: 300 * 1024 * 1024,
      totalBytes: 600 * 1024 * 1024,
    });
    expect(
      parseProgress({ progress: 0.3, text: 'Loading GPU shader modules[3/10]: 30% completed, 1 secs elapsed.' }),
    ).toEqual({ progress: 0.3, text: 'Loading GPU shader modules[3/10]: 30% completed, 1 secs elapsed.' });
  });
});

describe('errors that say what to do', () => {
  const ids = [
    'Qwen2.5-0.5B-Instruct-q4f16_1-MLC',
    'Qwen2.5-0.5B-Instruct-q4f32_1-MLC',
    'SmolLM2-135M-Instruct-q0f32-MLC',
    'Llama-3.2-1B-Instruct-q4f32_1-MLC',
  ];

  it('lists the closest model ids', () => {
    expect(closestIds('qwen2.5-0.5b-instruct-q4f32-MLC', ids, 2)).toEqual([
      'Qwen2.5-0.5B-Instruct-q4f32_1-MLC',
      'Qwen2.5-0.5B-Instruct-q4f16_1-MLC',
    ]);
    expect(f32Alternative('Qwen2.5-0.5B-Instruct-q4f16_1-MLC', ids)).toBe('Qwen2.5-0.5B-Instruct-q4f32_1-MLC');
  });

  it('maps web-llm failures by name and message, even as plain strings from a worker', async () => {
    const ctx = { modelId: 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC', knownIds: ids };
    const named = (name: string, message: string) => Object.assign(new Error(message), { name });
    expect(await toAgentError(named('WebGPUNotAvailableError', 'WebGPU is not supported'), ctx)).toMatchObject({
      code: 'webgpu-unavailable',
    });
    expect(await toAgentError('Error: Unable to find a compatible GPU. This issue might be…', ctx)).toMatchObject({
      code: 'webgpu-unavailable',
    });
    expect(
      await toAgentError(named('ModelNotFoundError', 'Cannot find model record in appConfig for x'), ctx),
    ).toMatchObject({ code: 'model-not-found' });
    expect(await toAgentError(named('DeviceLostError', 'The WebGPU device was lost'), ctx)).toMatchObject({
      code: 'device-lost',
    });
    expect(await toAgentError(new Error('Failed to allocate 2147483648 bytes: out of memory'), ctx)).toMatchObject({
      code: 'out-of-memory',
    });
    expect(
      await toAgentError(named('ShaderF16SupportError', 'needs shader-f16'), { ...ctx, modelId: ids[0] }),
    ).toMatchObject({ code: 'shader-f16-missing', message: expect.stringContaining(ids[1]) });
  });

  it('finds the failing URL and status behind an error that names neither', async () => {
    const record = {
      model: 'https://models.example/qwen/',
      model_id: ctxId,
      model_lib: 'https://models.example/qwen.wasm',
    };
    const probe = async (url: string) =>
      url.endsWith('.json')
        ? { url, status: 200, ok: true, bytes: 10, contentType: 'application/json' }
        : { url, status: 403, ok: false };
    const error = await toAgentError(new TypeError("Failed to execute 'add' on 'Cache': Request failed"), {
      modelId: ctxId,
      knownIds: [ctxId],
      record,
      probe,
    });
    expect(error).toMatchObject({ code: 'download-failed' });
    expect(error.message).toContain('https://models.example/qwen.wasm: HTTP 403');
    const unreachable = await toAgentError(new TypeError('Failed to fetch'), {
      modelId: ctxId,
      knownIds: [ctxId],
      record,
      probe: async (url) => ({ url, error: 'Failed to fetch' }),
    });
    expect(unreachable.message).toContain(
      'https://models.example/qwen/resolve/main/mlc-chat-config.json: Failed to fetch',
    );
    expect(unreachable.message).toContain('CORS');
  });
});

const ctxId = 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC';

describe('token estimate', () => {
  it('counts symbols and non-Latin text more heavily than English words', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('hello world')).toBe(2); // as Qwen3's, Llama 3's and Gemma 3's tokenizers count it
    expect(estimateTokens('{"a":1}')).toBeGreaterThan(estimateTokens('abcdefg'));
    expect(estimateTokens('日本語')).toBe(3);
  });
});
