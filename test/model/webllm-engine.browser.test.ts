/**
 * The real web-llm engine in headless Chromium without a WebGPU adapter:
 * what a visitor without a usable GPU sees.
 */
import { describe, expect, it } from 'vitest';
import { AgentError } from '../../src/errors';
import { createEngine } from '../../src/model/engines/create-engine';
import { probeWebGPU } from '../../src/model/engines/webllm/webllm-gpu';
import { settleWithin } from './settles';

const model = (modelId: string, appConfig?: unknown) => createEngine({ engine: 'webllm', modelId, appConfig });

describe('web-llm engine without a WebGPU adapter', () => {
  it('this browser has navigator.gpu but no adapter', async () => {
    const report = await probeWebGPU();
    expect(report).toMatchObject({ available: false, reason: 'no-adapter' });
  });

  it('fails with webgpu-unavailable, naming the flag and the scripted mode, without downloading', async () => {
    const fetched: string[] = [];
    const observer = new PerformanceObserver((list) => fetched.push(...list.getEntries().map((e) => e.name)));
    observer.observe({ type: 'resource' });
    const { error } = await settleWithin(model('Qwen2.5-0.5B-Instruct-q4f32_1-MLC').load(), 5_000);
    observer.disconnect();
    expect(error).toBeInstanceOf(AgentError);
    expect(error).toMatchObject({ code: 'webgpu-unavailable' });
    expect((error as Error).message).toContain('chrome://flags/#enable-unsafe-webgpu');
    expect((error as Error).message).toContain('scripted');
    expect(fetched.filter((url) => /huggingface|githubusercontent|\.wasm|mlc-chat-config/.test(url))).toEqual([]);
  });

  it('fails with model-not-found for an unknown id, listing close ids', async () => {
    const { error } = await settleWithin(model('SmolLM2-360M-Instruct-q4f32-MLC').load(), 5_000);
    expect(error).toMatchObject({ code: 'model-not-found' });
    expect((error as Error).message).toContain('SmolLM2-360M-Instruct-q4f32_1-MLC');
  });

  it("fails with model-not-found for an id missing from a page's own appConfig", async () => {
    const appConfig = {
      model_list: [{ model: '/models/a/resolve/main/', model_id: 'Tiny-A-q4f32_1-MLC', model_lib: '/models/a.wasm' }],
    };
    const { error } = await settleWithin(model('Tiny-B-q4f32_1-MLC', appConfig).load(), 5_000);
    expect(error).toMatchObject({ code: 'model-not-found' });
    expect((error as Error).message).toContain('Tiny-A-q4f32_1-MLC');
  });
});
