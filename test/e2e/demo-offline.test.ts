import { afterAll, beforeAll, expect, test } from 'vitest';
import { build } from 'vite';
import { chromium, type Browser } from 'playwright-core';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { serveStatic, type StaticServer } from './built-files';

const quiet = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
let server: StaticServer;
let browser: Browser;

beforeAll(async () => {
  // The static demo as `npm run build` writes it to dist-demo/, served from a sub-folder of a static host.
  const out = mkdtempSync(join(tmpdir(), 'inpage-demo-'));
  process.once('exit', () => rmSync(out, { recursive: true, force: true }));
  await build({ root: resolve(import.meta.dirname, '../..'), logLevel: 'silent', build: { outDir: out, emptyOutDir: true } });
  server = await serveStatic({ '/apps/demo/': out });
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: quiet });
  mkdirSync('test-results', { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

test('after one visit, the built demo loads and runs its scripted tour with the network off', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${server.url}/apps/demo/`);
  await page.waitForFunction(() => document.querySelector('#next-step')?.textContent?.startsWith('Remember'), null, { timeout: 30_000 });
  // The service worker has cached the shell and the workers once it controls the page.
  await page.waitForFunction(async () => Boolean((await navigator.serviceWorker.ready) && navigator.serviceWorker.controller), null, { timeout: 30_000 });

  await context.setOffline(true);
  await page.reload();
  await page.waitForFunction(() => document.querySelector('#next-step')?.textContent?.startsWith('Remember'), null, { timeout: 30_000 });
  await page.click('#next-step');
  await page.waitForFunction(() => document.querySelectorAll('#todos li').length === 2, null, { timeout: 30_000 });
  await page.screenshot({ path: 'test-results/demo-offline.png' });
  expect(await page.locator('#todos li span').allTextContents()).toEqual(['Buy milk', 'Call Ana']);
  expect(errors).toEqual([]);
  await context.close();
});
