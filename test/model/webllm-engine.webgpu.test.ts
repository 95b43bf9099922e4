/**
 * The real web-llm engine in Chromium with --enable-unsafe-webgpu (SwiftShader,
 * a CPU WebGPU adapter): the GPU check passes, so the failures are about the
 * model files, served from this test's own origin.
 *
 * The test server answers every missing path with its index page and HTTP 200
 * (a single-page-app fallback, like many real hosts). For a real 404, a
 * service worker (fixtures/status-sw.js) answers /fixtures/http-404/… with 404,
 * and the engine runs in a frame that worker controls.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelEngine } from '../../src/model/engine';
import { createEngine } from '../../src/model/engines/create-engine';
import { WebLLMEngine } from '../../src/model/engines/webllm/webllm-engine';
import { describeAdapter, probeWebGPU } from '../../src/model/engines/webllm/webllm-gpu';
import { settleWithin } from './settles';

const fixtures = '/test/model/fixtures';
type CreateEngine = typeof createEngine;

function tinyConfig(modelPath: string, libPath: string) {
  // Relative URLs, as a page would write them; the engine makes them absolute.
  return {
    model_list: [
      { model: modelPath, model_id: 'Tiny-q4f32_1-MLC', model_lib: libPath, overrides: { context_window_size: 1024 } },
    ],
  };
}

function tinyEngine(modelPath: string, libPath: string, create: CreateEngine = createEngine): ModelEngine {
  return create({ engine: 'webllm', modelId: 'Tiny-q4f32_1-MLC', appConfig: tinyConfig(modelPath, libPath) });
}

describe('web-llm engine with the SwiftShader adapter', () => {
  it('finds the adapter and reports it, and that it lacks shader-f16', async () => {
    const report = await probeWebGPU();
    expect(report.available).toBe(true);
    expect(report.adapter).toMatchObject({ vendor: 'google', architecture: 'swiftshader', isFallbackAdapter: true });
    expect(report.shaderF16).toBe(false);
    expect(describeAdapter(report)).toBe('google swiftshader (software fallback adapter), no shader-f16');
  });

  it('refuses an f16 model up front with shader-f16-missing, suggesting the q4f32 one', async () => {
    const engine = new WebLLMEngine({ modelId: 'SmolLM2-360M-Instruct-q4f16_1-MLC' });
    const { error } = await settleWithin(engine.load(), 5_000);
    expect(error).toMatchObject({ code: 'shader-f16-missing' });
    expect((error as Error).message).toContain('SmolLM2-360M-Instruct-q4f32_1-MLC');
    expect(engine.gpu?.adapter?.architecture).toBe('swiftshader');
  });

  it('an empty model library gives model-lib-invalid naming the file', async () => {
    const { error } = await settleWithin(
      tinyEngine(`${fixtures}/tiny-model/resolve/main/`, `${fixtures}/empty-lib.wasm`).load(),
      5_000,
    );
    expect(error).toMatchObject({ code: 'model-lib-invalid' });
    expect((error as Error).message).toContain(`${location.origin}${fixtures}/empty-lib.wasm`);
  });

  it('a config answered with an HTML page (a missing file behind an SPA fallback) gives download-failed naming the URL', async () => {
    const { error } = await settleWithin(
      tinyEngine(`${fixtures}/no-such-model/resolve/main/`, `${fixtures}/empty-lib.wasm`).load(),
      5_000,
    );
    expect(error).toMatchObject({ code: 'download-failed' });
    expect((error as Error).message).toContain(
      `${location.origin}${fixtures}/no-such-model/resolve/main/mlc-chat-config.json`,
    );
    expect((error as Error).message).toContain('HTML page instead of the file');
  });

  it('a model library answered with an HTML page gives download-failed naming the URL', async () => {
    const { error } = await settleWithin(
      tinyEngine(`${fixtures}/tiny-model/resolve/main/`, `${fixtures}/no-such-lib.wasm`).load(),
      5_000,
    );
    expect(error).toMatchObject({ code: 'download-failed' });
    expect((error as Error).message).toContain(`${location.origin}${fixtures}/no-such-lib.wasm`);
  });

  describe('files a server answers with HTTP 404', () => {
    let frame: HTMLIFrameElement;
    let registration: ServiceWorkerRegistration;
    let frameCreateEngine: CreateEngine;

    beforeAll(async () => {
      registration = await navigator.serviceWorker.register(`${fixtures}/status-sw.js`, { scope: `${fixtures}/` });
      const worker = registration.installing ?? registration.waiting ?? registration.active!;
      if (worker.state !== 'activated') {
        await new Promise<void>((resolve) =>
          worker.addEventListener('statechange', () => worker.state === 'activated' && resolve()),
        );
      }
      frame = document.createElement('iframe');
      frame.src = `${fixtures}/frame.html`;
      await new Promise((resolve) => {
        frame.onload = resolve;
        document.body.append(frame);
      });
      const frameWindow = frame.contentWindow as Window & { eval(code: string): unknown };
      expect(frameWindow.navigator.serviceWorker.controller).not.toBeNull();
      // Imported in the frame's realm so that web-llm's requests come from the controlled frame.
      // Vitest rewrites dynamic imports to go through its runner, which only the test page has.
      Object.assign(frameWindow, {
        __vitest_browser_runner__: { wrapDynamicImport: (load: () => Promise<unknown>) => load() },
      });
      const module = (await frameWindow.eval(`import('/src/model/engines/create-engine.ts')`)) as {
        createEngine: CreateEngine;
      };
      frameCreateEngine = module.createEngine;
    });

    afterAll(async () => {
      frame?.remove();
      await registration?.unregister();
    });

    it('a 404 model config gives download-failed naming the URL and the status', async () => {
      const { error } = await settleWithin(
        tinyEngine(`${fixtures}/http-404/model/resolve/main/`, `${fixtures}/empty-lib.wasm`, frameCreateEngine).load(),
        5_000,
      );
      expect(error).toMatchObject({ code: 'download-failed' });
      expect((error as Error).message).toContain(
        `${location.origin}${fixtures}/http-404/model/resolve/main/mlc-chat-config.json: HTTP 404`,
      );
    });

    it('a 404 model library gives download-failed naming the URL and the status', async () => {
      const { error } = await settleWithin(
        tinyEngine(`${fixtures}/tiny-model/resolve/main/`, `${fixtures}/http-404/lib.wasm`, frameCreateEngine).load(),
        5_000,
      );
      expect(error).toMatchObject({ code: 'download-failed' });
      expect((error as Error).message).toContain(`${location.origin}${fixtures}/http-404/lib.wasm: HTTP 404`);
    });
  });
});
