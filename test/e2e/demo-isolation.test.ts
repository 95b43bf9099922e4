// The demo is cross-origin isolated wherever it is served (issue 32, "threads where the page allows
// them"), so llama.cpp may run more than one thread: `npm start` and `vite preview` send COOP and COEP,
// and on a static host that sends no headers the demo's own service worker adds them (public/sw.js; with a
// real model: test/real-model/e2e/demo-isolation.test.ts). Nothing the demo loads may be blocked by COEP.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { preview, type PreviewServer, type ViteDevServer } from 'vite';
import type { Browser, Page } from 'playwright-core';
import { resolve } from 'node:path';
import { builtDemo } from './built-files';
import { eventually, launchChromium, serveDemo, visit } from './demo-visitor';
import { failedRequests } from './failed-requests';

const root = resolve(import.meta.dirname, '../..');
let dev: ViteDevServer;
let devUrl: string;
let previewServer: PreviewServer;
let browser: Browser;

beforeAll(async () => {
  ({ server: dev, url: devUrl } = await serveDemo());
  const out = await builtDemo();
  previewServer = await preview({
    root,
    logLevel: 'silent',
    build: { outDir: out },
    preview: { host: '127.0.0.1', port: 0 },
  });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await previewServer?.close();
  await dev?.close();
});

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
