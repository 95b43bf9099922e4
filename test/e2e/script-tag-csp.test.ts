import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { builtLibrary, serveStatic, type StaticServer } from './built-files';
import { chromiumArgs as quiet, findChromium } from '../../scripts/chromium.mjs';

const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; report-uri /csp-report";

let browser: Browser;
let server: StaticServer;

beforeAll(async () => {
  const dist = await builtLibrary();
  // The library lives in an arbitrary folder, away from the page: it must find its worker by itself.
  server = await serveStatic(
    { '/vendor/lib/': dist, '/pages/': resolve(import.meta.dirname, 'pages/csp') },
    { 'Content-Security-Policy': CSP },
  );
  browser = await chromium.launch({ executablePath: findChromium(), args: quiet });
  mkdirSync('test-results', { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function runPage(path: string) {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${server.url}${path}`);
  await page.waitForFunction(() => (window as unknown as { __result?: unknown }).__result, null, { timeout: 30_000 });
  const result = await page.evaluate(() => (window as unknown as { __result: unknown }).__result);
  const items = await page.locator('#todos li').allTextContents();
  const violations = await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations);
  await page.screenshot({ path: `test-results/${path.split('/').pop()}.png` });
  await page.close();
  return { result, items, violations, errors };
}

describe('the built files on a page with a strict Content-Security-Policy', () => {
  test('the script-tag build, loaded from another folder, runs a scripted round trip with no CSP violation', async () => {
    const { result, items, violations, errors } = await runPage('/pages/script-tag.html');
    expect(result).toEqual({ text: 'Added milk.' });
    expect(items).toEqual(['milk']);
    expect(violations).toEqual([]);
    expect(errors).toEqual([]);
    expect(server.reports).toEqual([]);
  });

  test('the ESM build does the same from a module script', async () => {
    const { result, items, violations } = await runPage('/pages/module.html');
    expect(result).toEqual({ text: 'Added milk.' });
    expect(items).toEqual(['milk']);
    expect(violations).toEqual([]);
    expect(server.reports).toEqual([]);
  });
});
