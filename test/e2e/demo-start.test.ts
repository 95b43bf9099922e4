import { afterAll, beforeAll, expect, test } from 'vitest';
import { createServer, type ViteDevServer } from 'vite';
import { chromium, type Browser } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';

const quiet = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
let server: ViteDevServer;
let browser: Browser;
let url: string;

beforeAll(async () => {
  // What `npm start` serves.
  server = await createServer({
    root: resolve(import.meta.dirname, '../..'),
    logLevel: 'error',
    server: { host: '127.0.0.1', port: 0 },
  });
  await server.listen();
  url = server.resolvedUrls!.local[0]!;
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: quiet });
  mkdirSync('test-results', { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

test('the demo runs the scripted tour without WebGPU: a step adds to-dos, text stays text, a reload keeps the conversation, and the destructive step waits in a dialog until allowed', async () => {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('dialog', (dialog) => errors.push(`unexpected dialog: ${dialog.message()}`));
  await page.goto(url);
  // Chromium runs here without --enable-unsafe-webgpu: the page says so, and labels the tour.
  await page.waitForSelector('#gpu-panel:not([hidden])', { timeout: 30_000 });
  expect(await page.textContent('#gpu-panel')).toMatch(/No WebGPU here/);
  expect(await page.isVisible('#tour-label')).toBe(true);

  await page.click('#next-step');
  await page.waitForFunction(() => document.querySelectorAll('#todos li').length === 2, null, { timeout: 30_000 });
  expect(await page.locator('#todos li span').allTextContents()).toEqual(['Buy milk', 'Call Ana']);
  expect(await page.locator('#events li').count()).toBeGreaterThanOrEqual(4);

  // Text from the person (or a model) is shown as text, never as HTML.
  await page.fill('#prompt', '<img src=x onerror=alert(1)>');
  await page.click('#send');
  await page.waitForFunction(
    () =>
      [...document.querySelectorAll('#log li.user')].some((li) => li.textContent === '<img src=x onerror=alert(1)>'),
    null,
    { timeout: 30_000 },
  );
  expect(await page.locator('#log img').count()).toBe(0);
  await page.screenshot({ path: 'test-results/demo-tour.png', fullPage: true });

  await page.reload();
  await page.waitForFunction(() => document.querySelectorAll('#todos li').length === 2, null, { timeout: 30_000 });
  expect(await page.locator('#log li.user').count()).toBe(2);

  // The tour goes on where it was: sort, fill, list, then the destructive step, which waits in a dialog.
  for (let step = 3; step <= 5; step++) {
    await page.click('#next-step');
    await page.waitForFunction((n) => document.querySelectorAll('#log li.user').length === n, step, {
      timeout: 30_000,
    });
    await page.waitForFunction(() => !(document.querySelector('#send') as HTMLButtonElement).disabled);
  }
  expect(await page.locator('#products tbody td:first-child').allTextContents()).toEqual([
    'Grinder',
    'Kettle',
    'Teapot',
    'Mug',
  ]);
  expect(await page.inputValue('#form-email')).toBe('ana@example.org');
  await page.click('#next-step');
  await page.waitForSelector('#approval[open]', { timeout: 30_000 });
  await page.waitForTimeout(200);
  expect(await page.locator('#todos li').count()).toBe(2);
  await page.screenshot({ path: 'test-results/demo-approval.png' });
  await page.click('#approval-approve');
  await page.waitForFunction(() => document.querySelectorAll('#todos li').length === 0, null, { timeout: 30_000 });
  expect(errors).toEqual([]);
  await page.close();
});
