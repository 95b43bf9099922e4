import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { resolve } from 'node:path';
import { builtLibrary, serveStatic, type StaticServer } from './built-files';
import { chromiumArgs as quiet, findChromium } from '../../scripts/chromium.mjs';

let browser: Browser;
let server: StaticServer;

beforeAll(async () => {
  const dist = await builtLibrary();
  server = await serveStatic({ '/vendor/lib/': dist, '/pages/': resolve(import.meta.dirname, 'pages/tabs') });
  browser = await chromium.launch({ executablePath: findChromium(), args: quiet });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe("share: 'tabs'", () => {
  test("two tabs share one model host, each tab's tool runs in its own tab, and the host outlives the first tab", async () => {
    const context = await browser.newContext();
    const first = await context.newPage();
    await first.goto(`${server.url}/pages/tab.html?tab=A`);
    const a = await first.evaluate(() => (window as any).agentReady);
    expect(a).toMatchObject({ modelShared: false, host: 'shared-worker' });

    const second = await context.newPage();
    await second.goto(`${server.url}/pages/tab.html?tab=B`);
    const b = await second.evaluate(() => (window as any).agentReady);
    // The second tab found the model already loaded: the weights were not loaded again.
    expect(b).toMatchObject({ modelShared: true, host: 'shared-worker' });
    expect(b.sessionId).not.toBe(a.sessionId);

    expect(await second.evaluate(() => (window as any).ask('milk please'))).toEqual({
      answer: 'Added.',
      author: b.sessionId,
    });
    expect(await second.locator('#todos li').allTextContents()).toEqual(['milk (in tab B)']);
    expect(await first.locator('#todos li').allTextContents()).toEqual([]);

    await first.close();
    // The model host lives on for the remaining tab.
    expect(await second.evaluate(() => (window as any).ask('more milk'))).toEqual({
      answer: 'Added.',
      author: b.sessionId,
    });
    expect(await second.locator('#todos li').allTextContents()).toEqual(['milk (in tab B)', 'milk (in tab B)']);
    await second.screenshot({ path: 'test-results/shared-model-tab-b.png' });
    await context.close();
  });
});
