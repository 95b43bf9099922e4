import { afterAll, beforeAll, expect, test } from 'vitest';
import { createServer, type ViteDevServer } from 'vite';
import { chromium, type Browser } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';

const quiet = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
let server: ViteDevServer;
let browser: Browser;
let url: string;

beforeAll(async () => {
  // What `npm start` serves.
  server = await createServer({ root: resolve(import.meta.dirname, '../..'), logLevel: 'error', server: { host: '127.0.0.1', port: 0 } });
  await server.listen();
  url = server.resolvedUrls!.local[0]!;
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: quiet });
  mkdirSync('test-results', { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

test('the demo page runs the round trip visibly: the scripted turn adds a to-do and the events are listed; a reload keeps both', async () => {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(url);
  await page.waitForFunction(() => document.querySelector('#model-label')?.textContent?.includes('Scripted'), null, { timeout: 30_000 });
  await page.click('button[type=submit]');
  await page.waitForFunction(() => document.querySelectorAll('#events li').length >= 4, null, { timeout: 30_000 });
  expect(await page.locator('#todos li').allTextContents()).toEqual(['buy milk']);
  expect(await page.locator('#log li').allTextContents()).toEqual(['You: Remember to buy milk', 'Agent: Added “buy milk” to your list.']);
  await page.screenshot({ path: 'test-results/demo-round-trip.png' });

  await page.reload();
  await page.waitForFunction(() => document.querySelectorAll('#events li').length >= 4, null, { timeout: 30_000 });
  expect(await page.locator('#todos li').allTextContents()).toEqual(['buy milk']);
  expect(await page.locator('#log li').count()).toBe(2);
  expect(errors).toEqual([]);
  await page.close();
});
