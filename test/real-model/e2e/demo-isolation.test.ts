// On a static host that sends no headers, the demo's own service worker makes the page cross-origin isolated
// (public/sw.js), so llama.cpp may run more than one thread: loading a CPU model, the real base model Gemma 3
// 270M, reloads the page once into an isolated one (what npm start and vite preview send themselves:
// test/e2e/demo-isolation.test.ts). Nothing the demo loads may be blocked by COEP.
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { builtDemo, serveStatic, type StaticServer } from '../../e2e/built-files';
import { eventually, launchChromium, ready, shot, visit } from '../../e2e/demo-visitor';
import { failedRequests } from '../../e2e/failed-requests';
import { hasRealModel } from '../real-model';
import { modelCacheDir } from '../../../scripts/model-files.mjs';

let staticHost: StaticServer;
let browser: Browser;

beforeAll(async () => {
  if (!hasRealModel()) return;
  const out = await builtDemo();
  // A static host that sends no headers at all, with the models beside the demo.
  staticHost = await serveStatic({ '/demo/': out, '/demo/models/': modelCacheDir() });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await staticHost?.close();
});

const isolated = (page: Page) => page.evaluate(() => crossOriginIsolated);

/**
 * Isolated, llama.cpp gets more than one thread wherever the device has more than one core, unless the engine
 * measured the cores busy just before the load (other test runs share them): then the model panel says so.
 */
async function expectIsolatedThreads(page: Page, label: string): Promise<void> {
  if (/one CPU thread/.test(label)) {
    if ((await page.evaluate(() => navigator.hardwareConcurrency)) > 1)
      expect(await page.textContent('#gpu-panel')).toMatch(
        /llama\.cpp runs on one thread, not \d+: this device's cores are busy now/,
      );
  } else expect(label).toMatch(/\(llama\.cpp, \d+ CPU threads\)$/);
}

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
    await expectIsolatedThreads(page, label);
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
    // The same model; its thread count is measured again at each load.
    const reloaded = (await page.textContent('#model-label'))!;
    const modelOf = (text: string) => text.replace(/ \(llama\.cpp, [^)]*\)$/, '');
    expect(modelOf(reloaded)).toBe(modelOf(label));
    await expectIsolatedThreads(page, reloaded);
    expect(await page.isVisible('#mode-banner')).toBe(false);
    expect(problems).toEqual([]);
    expect(failed).toEqual([]);
    await close();
  },
  300_000,
);
