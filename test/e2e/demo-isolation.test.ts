// The demo is cross-origin isolated wherever it is served (issue 32, "threads where the page allows
// them"), so llama.cpp may run more than one thread: `npm start` and `vite preview` send COOP and COEP,
// and on a static host that sends no headers the demo's own service worker adds them (public/sw.js).
// Nothing the demo loads may be blocked by COEP.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { build, preview, type PreviewServer, type ViteDevServer } from 'vite';
import type { Browser, Page } from 'playwright-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { serveStatic, type StaticServer } from './built-files';
import { eventually, launchChromium, ready, serveDemo, shot, visit } from './demo-visitor';
import { hasRealModel } from '../real-model';
import { modelCacheDir } from '../../scripts/model-files.mjs';

const root = resolve(import.meta.dirname, '../..');
let dev: ViteDevServer;
let devUrl: string;
let previewServer: PreviewServer;
let staticHost: StaticServer;
let browser: Browser;

beforeAll(async () => {
  ({ server: dev, url: devUrl } = await serveDemo());
  const out = mkdtempSync(join(tmpdir(), 'inpage-demo-isolated-'));
  process.once('exit', () => rmSync(out, { recursive: true, force: true }));
  await build({ root, logLevel: 'silent', build: { outDir: out, emptyOutDir: true } });
  previewServer = await preview({
    root,
    logLevel: 'silent',
    build: { outDir: out },
    preview: { host: '127.0.0.1', port: 0 },
  });
  // A static host that sends no headers at all, with the models beside the demo.
  staticHost = await serveStatic({ '/demo/': out, '/demo/models/': modelCacheDir() });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await previewServer?.close();
  await staticHost?.close();
  await dev?.close();
});

/**
 * Requests the browser refused or that failed (a resource COEP blocks fails with ERR_BLOCKED_BY_RESPONSE),
 * besides the visit's own problems; not those the page cancelled itself (ERR_ABORTED: the engine reads the
 * start of llama.cpp's wasm to check it, then stops).
 */
function failedRequests(page: Page): string[] {
  const failed: string[] = [];
  page.on('requestfailed', (request) => {
    const why = request.failure()?.errorText ?? '';
    if (why !== 'net::ERR_ABORTED') failed.push(`${why} ${request.url()}`);
  });
  return failed;
}

const isolated = (page: Page) => page.evaluate(() => crossOriginIsolated);

test('npm start and vite preview serve the demo cross-origin isolated, and nothing it loads is blocked', async () => {
  for (const [name, url] of [
    ['npm start', devUrl],
    ['vite preview', previewServer.resolvedUrls!.local[0]!],
  ] as const) {
    const { page, problems, close } = await visit(browser, url, { size: 'phone', scheme: 'light' });
    const failed = failedRequests(page);
    expect(await isolated(page), name).toBe(true);
    // The drawer's views: the picker and the toolkit graph.
    await page.click('#model-button');
    await eventually(() => page.locator('#model-select option').count()).toBeGreaterThan(3);
    await page.keyboard.press('Escape');
    await page.click('#insight-button');
    await page.click('#tab-graph');
    await page.waitForSelector('#graph svg');
    expect(problems, name).toEqual([]);
    expect(failed, name).toEqual([]);
    await close();
  }
});

test.skipIf(!hasRealModel())(
  'on a static host that sends no headers, loading a CPU model reloads the page once into an isolated one, the model loads after it, and a reload loads it again from the cache',
  async () => {
    const { page, problems, close } = await visit(browser, `${staticHost.url}/demo/`, {
      size: 'desktop',
      scheme: 'light',
    });
    const failed = failedRequests(page);
    // A first visit is not controlled by the service worker yet, so it is not isolated.
    expect(await isolated(page)).toBe(false);
    await page.waitForFunction(async () =>
      Boolean((await navigator.serviceWorker.ready) && navigator.serviceWorker.controller),
    );
    await page.click('#model-button');
    await eventually(() => page.locator('#model-select option').count()).toBeGreaterThan(3);
    await page.selectOption('#model-select', 'gguf:gemma-3-270m-q4_k_m');
    // Its limits show under the list, where a phone shows them too.
    expect(await page.textContent('#model-hint')).toContain('never replies in words');
    await Promise.all([page.waitForEvent('load'), page.click('#load-model')]);
    expect(await isolated(page)).toBe(true);
    await page.waitForFunction(
      () => /Gemma 3 270M .*llama\.cpp/.test(document.querySelector('#model-label')?.textContent ?? ''),
      null,
      {
        timeout: 120_000,
      },
    );
    await ready(page);
    const label = (await page.textContent('#model-label'))!;
    console.info(`static host, after the reload for isolation: ${label}`);
    // Isolated, llama.cpp gets more than one thread wherever the device has more than one core.
    if ((await page.evaluate(() => navigator.hardwareConcurrency)) > 1)
      expect(label).toMatch(/\(llama\.cpp, \d+ CPU threads\)$/);
    await shot(page, 'demo-isolated-static-loaded-desktop-light');

    // Remembered: a reload loads it again, from the browser's cache, without a click.
    await page.reload();
    await page.waitForFunction(
      () => /Gemma 3 270M .*llama\.cpp/.test(document.querySelector('#model-label')?.textContent ?? ''),
      null,
      {
        timeout: 120_000,
      },
    );
    await ready(page);
    expect(await isolated(page)).toBe(true);
    expect(await page.textContent('#model-label')).toBe(label);
    expect(await page.isVisible('#mode-banner')).toBe(false);
    expect(problems).toEqual([]);
    expect(failed).toEqual([]);
    await close();
  },
  300_000,
);
