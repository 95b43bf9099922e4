/**
 * What a page's Content-Security-Policy must allow for the wllama engine, run
 * for real: the built ESM bundle on a page served with a policy, a tiny GGUF
 * from the page's own origin. The policy of docs/models-and-engines.md works; without
 * 'wasm-unsafe-eval', or without blob: in worker-src (llama.cpp's own
 * worker), the agent fails at once with csp-blocked naming what to add,
 * instead of a load that never settles.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { basename, dirname, resolve } from 'node:path';
import { builtLibrary, serveStatic, type StaticServer } from './built-files';
import { chromiumArgs as quiet, findChromium } from '../../scripts/chromium.mjs';
import { tinyModelPath } from '../../scripts/model-files.mjs';

/** The policy docs/models-and-engines.md gives a page with a GGUF model ("Any GGUF model: llama.cpp in the worker"). */
export const GGUF_POLICY = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self' blob:";

let browser: Browser;
let dist: string;
const model = tinyModelPath('gemma2', 'plain');
const servers: StaticServer[] = [];

beforeAll(async () => {
  dist = await builtLibrary();
  browser = await chromium.launch({ executablePath: findChromium(), args: quiet });
});

afterAll(async () => {
  await browser?.close();
  await Promise.all(servers.map((server) => server.close()));
});

async function runUnder(policy: string) {
  const server = await serveStatic(
    {
      '/vendor/lib/': dist,
      '/pages/': resolve(import.meta.dirname, 'pages/wllama-csp'),
      '/models/': dirname(model),
    },
    { 'Content-Security-Policy': policy },
  );
  servers.push(server);
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${server.url}/pages/?model=${basename(model)}`);
  await page.waitForFunction(() => (window as unknown as { __result?: unknown }).__result, null, { timeout: 60_000 });
  const result = await page.evaluate(() => (window as unknown as { __result: Record<string, string> }).__result);
  const violations = await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations);
  await page.close();
  return { result, violations, errors };
}

describe('a GGUF model on a page with a Content-Security-Policy', () => {
  test("under the docs' policy it loads and answers, with no violation", async () => {
    const { result, violations, errors } = await runUnder(GGUF_POLICY);
    expect(result).toEqual({ label: 'tiny-random-gemma2 (llama.cpp, one CPU thread)', end: 'answer' });
    expect(violations).toEqual([]);
    expect(errors).toEqual([]);
  });

  test("without 'wasm-unsafe-eval' it fails at once with csp-blocked, naming it", async () => {
    const { result } = await runUnder("default-src 'self'; script-src 'self'; worker-src 'self' blob:");
    expect(result.code).toBe('csp-blocked');
    expect(result.message).toMatch(/Add 'wasm-unsafe-eval' to script-src/);
  });

  test('without blob: in worker-src it fails at once with csp-blocked, naming it', async () => {
    const { result } = await runUnder("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'");
    expect(result.code).toBe('csp-blocked');
    expect(result.message).toMatch(/Add blob: to worker-src/);
  });
});
