// Issue 52 item 1: the read-ahead kept across page loads. Our WebAssembly build of llama.cpp (wasm/build.sh)
// reads a prompt's constant part, its state is saved and kept in OPFS under the model's SHA-256 and the exact
// prefix; the page is reloaded (a new worker, a new llama.cpp), the state restored, and the full prompt read:
// llama.cpp's own count shows the prefix cached, and the answer is the one a llama.cpp that read it all gives.
// A changed prefix or model finds nothing; a damaged file is refused and deleted; bytes that are no state of
// llama.cpp's are refused by llama.cpp, and the prompt is then read whole with the same answer.
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { ViteDevServer } from 'vite';
import type { Browser, Page } from 'playwright-core';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { launchChromium, serveDemo } from './demo-visitor';
import { hasInstructModel, INSTRUCT_MODEL_URL } from '../real-model';
import { modelCacheDir, REAL_MODELS } from '../../scripts/model-files.mjs';

/** Where wasm/build.sh leaves its default build (or $WASM_BUILD_OUT). */
const BUILD = process.env.WASM_BUILD_OUT ?? join(modelCacheDir(), 'wasm-build', 'out-default');
const built = existsSync(join(BUILD, 'wllama.wasm')) && existsSync(join(BUILD, 'wllama.js'));
const run = hasInstructModel() && built;
if (!built) console.warn(`Skipping the prefix-state test: no build of wasm/build.sh in ${BUILD}.`);

const MODEL_SHA256: string = REAL_MODELS['qwen2.5-coder-0.5b-instruct-q4_k_m.gguf'].sha256;
const PREFIX =
  '<|im_start|>system\nYou are a helpful assistant of a bookshop. Answer in one short sentence. ' +
  'The shop opens at nine and closes at six, every day but Sunday. Shipping inside the country is free ' +
  'above thirty euros; below that it costs four euros. Books can be returned within two weeks.<|im_end|>\n' +
  '<|im_start|>user\n';
const PROMPT = `${PREFIX}When does the shop close on Saturday?<|im_end|>\n<|im_start|>assistant\n`;
const KEY = { modelSha256: MODEL_SHA256, prefix: PREFIX };
const N = 12;

let server: ViteDevServer;
let browser: Browser;
let page: Page;

/** Serves the build at /wasm-build/ from the test server's own origin. */
const serveBuild = {
  name: 'serve-wasm-build',
  configureServer(vite: ViteDevServer) {
    vite.middlewares.use('/wasm-build/', (request, response, next) => {
      const name = (request.url ?? '').split('?')[0]!.replace(/^\//, '');
      if (name !== 'wllama.js' && name !== 'wllama.wasm') return next();
      const path = join(BUILD, name);
      response.setHeader('content-type', name.endsWith('.js') ? 'text/javascript' : 'application/wasm');
      response.setHeader('content-length', String(statSync(path).size));
      createReadStream(path).pipe(response);
    });
  },
};

type Api = Record<string, (...args: unknown[]) => Promise<unknown>>;
function call<T>(name: string, ...args: unknown[]): Promise<T> {
  return page.evaluate(
    ([n, a]) => (window as unknown as { prefixState: Api }).prefixState[n as string]!(...(a as unknown[])),
    [name, args] as const,
  ) as Promise<T>;
}

async function open(url: string): Promise<void> {
  await page.goto(url);
  await page.waitForFunction(() => 'prefixState' in window);
}

beforeAll(async () => {
  if (!run) return;
  let url: string;
  ({ server, url } = await serveDemo({ plugins: [serveBuild] }));
  browser = await launchChromium();
  page = await (await browser.newContext()).newPage();
  await open(`${url}test/e2e/prefix-state/index.html`);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

interface Answer {
  text: string;
  timings: { cache_n?: number; prompt_n?: number };
}

test.skipIf(!run)(
  'a prefix read ahead, kept, and restored after a reload is cached by llama.cpp and answers the same',
  async () => {
    const model = INSTRUCT_MODEL_URL;
    const whole = await call<Answer>('answer', model, PROMPT, N);
    expect(whole.timings.cache_n).toBe(0);

    const kept = await call<{ read: Answer['timings']; tokens: number; stateBytes: number; fileBytes: number }>(
      'readAheadAndKeep',
      model,
      KEY,
    );
    expect(kept.tokens).toBe(kept.read.prompt_n);
    console.log(`kept: ${JSON.stringify(kept)}`);

    await page.reload();
    await page.waitForFunction(() => 'prefixState' in window);
    const restored = await call<Answer & { restored: number; restoreMs: number }>(
      'restoreAndAnswer',
      model,
      KEY,
      PROMPT,
      N,
    );
    console.log(`restored: ${JSON.stringify({ ...restored, text: undefined })}`);
    expect(restored.restored).toBe(kept.tokens);
    // llama.cpp's own count: every token of the prefix came from the restored state.
    expect(restored.timings.cache_n).toBe(kept.tokens);
    expect(restored.timings.prompt_n).toBe(whole.timings.prompt_n! - kept.tokens);
    expect(restored.text).toBe(whole.text);

    // Another prefix or another model: nothing is found.
    expect(await call('find', { ...KEY, prefix: `${PREFIX} ` })).toBeNull();
    expect(
      await call('find', { ...KEY, modelSha256: MODEL_SHA256.replace(/^./, (c) => (c === '0' ? '1' : '0')) }),
    ).toBeNull();
    expect(await call('find', KEY)).toBe(kept.stateBytes);
  },
  1_800_000,
);

test.skipIf(!run)(
  'a damaged kept state is refused and deleted; bytes llama.cpp cannot read are refused and the prompt read whole',
  async () => {
    const model = INSTRUCT_MODEL_URL;
    // A byte in the middle of llama.cpp's state changed: the file's own hash no longer matches.
    expect(await call('damage', KEY, 4096)).toBeNull();
    expect(await call('find', KEY)).toBeNull();

    const whole = await call<Answer>('answer', model, PROMPT, N);
    const foreign = await call<Answer & { refused: string }>(
      'restoreBytes',
      model,
      Array.from({ length: 64 }, (_, i) => i),
      PROMPT,
      N,
    );
    expect(foreign.refused).toMatch(/^model-failed: llama\.cpp refused the state_restore/);
    expect(foreign.timings.cache_n).toBe(0);
    expect(foreign.text).toBe(whole.text);
  },
  1_800_000,
);
