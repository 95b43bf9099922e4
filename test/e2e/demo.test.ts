import { afterAll, beforeAll, expect, test } from 'vitest';
import { build } from 'vite';
import { chromium, type Browser } from 'playwright-core';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { serveStatic, type StaticServer } from './built-files';

const quiet = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
let server: StaticServer;
let browser: Browser;

beforeAll(async () => {
  // The static demo as `npm run build` writes it to dist-demo/, served from a sub-folder of a static host.
  const out = mkdtempSync(join(tmpdir(), 'inpage-demo-'));
  process.once('exit', () => rmSync(out, { recursive: true, force: true }));
  await build({
    root: resolve(import.meta.dirname, '../..'),
    logLevel: 'silent',
    build: { outDir: out, emptyOutDir: true },
  });
  server = await serveStatic({ '/apps/demo/': out });
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: quiet });
  mkdirSync('test-results', { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const demoUrl = () => `${server.url}/apps/demo/`;

test('sessions: export downloads JSONL, import makes a new session, and a corrupted file is refused with its line number', async () => {
  const context = await browser.newContext({ acceptDownloads: true });
  const page = await context.newPage();
  await page.goto(demoUrl());
  await page.waitForFunction(() => document.querySelector('#next-step')?.textContent?.startsWith('Remember'), null, {
    timeout: 30_000,
  });
  await page.click('#next-step');
  await page.waitForFunction(() => document.querySelectorAll('#todos li').length === 2, null, { timeout: 30_000 });
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-session')]);
  const jsonl = await (
    await download.createReadStream()
  )
    .toArray()
    .then((chunks) => Buffer.concat(chunks).toString('utf8'));
  expect(jsonl.split('\n')[0]).toContain('"type":"session"');

  const lines = jsonl.trim().split('\n');
  const corrupt = [lines[0], lines[1], '{"id": broken', ...lines.slice(2)].join('\n');
  await page.setInputFiles('#import-file', {
    name: 'bad.jsonl',
    mimeType: 'application/x-ndjson',
    buffer: Buffer.from(corrupt),
  });
  await page.waitForFunction(() => document.querySelector('#import-status')?.textContent?.includes('line 3'), null, {
    timeout: 30_000,
  });
  expect(await page.locator('#sessions li').count()).toBe(1);

  await page.setInputFiles('#import-file', {
    name: 'good.jsonl',
    mimeType: 'application/x-ndjson',
    buffer: Buffer.from(jsonl),
  });
  await page.waitForFunction(() => document.querySelectorAll('#sessions li').length === 2, null, { timeout: 30_000 });
  // The imported copy is open now, with the same conversation.
  expect(await page.locator('#log li.user').allTextContents()).toEqual(['Remember to buy milk and to call Ana']);
  await page.setViewportSize({ width: 360, height: 800 });
  await page.screenshot({ path: 'test-results/demo-phone.png', fullPage: true });
  await context.close();
});

test('the built demo in dark mode', async () => {
  const context = await browser.newContext({ colorScheme: 'dark', viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(demoUrl());
  await page.waitForFunction(() => document.querySelector('#next-step')?.textContent?.startsWith('Remember'), null, {
    timeout: 30_000,
  });
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(background).toBe('rgb(15, 18, 24)');
  await page.screenshot({ path: 'test-results/demo-dark.png' });
  await context.close();
});

test('after one visit, the built demo loads and runs its scripted tour with the network off', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(demoUrl());
  await page.waitForFunction(() => document.querySelector('#next-step')?.textContent?.startsWith('Remember'), null, {
    timeout: 30_000,
  });
  // The service worker has cached the shell and the workers once it controls the page.
  await page.waitForFunction(
    async () => Boolean((await navigator.serviceWorker.ready) && navigator.serviceWorker.controller),
    null,
    { timeout: 30_000 },
  );

  await context.setOffline(true);
  await page.reload();
  await page.waitForFunction(() => document.querySelector('#next-step')?.textContent?.startsWith('Remember'), null, {
    timeout: 30_000,
  });
  await page.click('#next-step');
  await page.waitForFunction(() => document.querySelectorAll('#todos li').length === 2, null, { timeout: 30_000 });
  await page.screenshot({ path: 'test-results/demo-offline.png' });
  expect(await page.locator('#todos li span').allTextContents()).toEqual(['Buy milk', 'Call Ana']);
  expect(errors).toEqual([]);
  await context.close();
});
