// The demo's service worker (public/sw.js) serves the demo offline and makes its pages cross-origin isolated, on a
// static host that sends no headers. Its scope is the demo's folder, where a site may have other pages and files
// too: it touches only the demo's own pages and files. Built once and served with a page of the site beside the
// demo (whose picture comes from another origin), an API that answers `no-store, private` per query, and a model
// file whose address does not end in .gguf.
//
// Before the fix: the other page was made isolated, so its picture from another origin was blocked; the API's
// answer for ?u=alice was cached and, offline, served for ?u=bob; a missing file offline was answered with the
// demo's index.html; the model file was stored in the service worker's cache besides the engine's.
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { createServer, type Server } from 'node:http';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize, resolve } from 'node:path';
import { builtDemo } from './built-files';
import { launchChromium, ready, visit } from './demo-visitor';

const root = resolve(import.meta.dirname, '../..');
const TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.html': 'text/html',
  '.json': 'application/json',
  '.css': 'text/css',
  '.wasm': 'application/wasm',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.webmanifest': 'application/manifest+json',
};
let server: Server;
let base: string;
let otherOrigin: string;
let browser: Browser;

beforeAll(async () => {
  const out = await builtDemo();
  const picture = readFileSync(join(root, 'public/icon-192.png'));
  server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    // Another origin's picture (the same server, reached as localhost): no CORP header, as most sites send none.
    if (url.pathname === '/picture.png') return response.writeHead(200, { 'content-type': 'image/png' }).end(picture);
    if (url.pathname === '/demo/other.html')
      return response
        .writeHead(200, { 'content-type': 'text/html' })
        .end(`<!doctype html><title>Another page</title><img id="picture" src="${otherOrigin}/picture.png">`);
    if (url.pathname === '/demo/api/me')
      return response
        .writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store, private' })
        .end(JSON.stringify({ user: url.searchParams.get('u') }));
    if (url.pathname === '/demo/models/weights.bin')
      return response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.alloc(4096, 7));
    const rest = url.pathname.replace(/^\/demo\//, '');
    const file = normalize(join(out, rest === '' ? 'index.html' : rest));
    if (
      !url.pathname.startsWith('/demo/') ||
      !file.startsWith(out) ||
      !existsSync(file) ||
      statSync(file).isDirectory()
    )
      return response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    response
      .writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' })
      .end(readFileSync(file));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const port = (server.address() as { port: number }).port;
  base = `http://127.0.0.1:${port}/demo/`;
  otherOrigin = `http://localhost:${port}`;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await new Promise((done) => server?.close(done));
});

const fetchIn = (page: Page, path: string) =>
  page.evaluate(async (path) => {
    try {
      const response = await fetch(path);
      return { status: response.status, type: response.headers.get('content-type'), body: await response.text() };
    } catch (error) {
      return { error: String(error) };
    }
  }, path);

const cachedUrls = (page: Page) =>
  page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys()) urls.push(...(await (await caches.open(name)).keys()).map((r) => r.url));
    return urls;
  });

test('the service worker keeps to the demo’s own pages and files', async () => {
  const { page, close } = await visit(browser, base, { size: 'desktop', scheme: 'light' });
  await page.waitForFunction(
    async () => Boolean((await navigator.serviceWorker.ready) && navigator.serviceWorker.controller),
    null,
    { timeout: 30_000 },
  );
  // Online, through the demo's controlled page: an API that must not be kept, and a model file.
  expect(await fetchIn(page, 'api/me?u=alice')).toMatchObject({ status: 200, body: '{"user":"alice"}' });
  expect(await fetchIn(page, 'models/weights.bin')).toMatchObject({ status: 200 });
  // A page of the site beside the demo: not made isolated, so its picture from another origin shows.
  const other = await page.context().newPage();
  await other.goto(`${base}other.html`);
  await other.waitForFunction(() => (document.querySelector('#picture') as HTMLImageElement | null)?.complete);
  // Soft: each break shows on its own.
  expect.soft(await other.evaluate(() => crossOriginIsolated), 'the other page isolated').toBe(false);
  expect
    .soft(
      await other.evaluate(() => (document.querySelector('#picture') as HTMLImageElement).naturalWidth),
      "the other page's picture",
    )
    .toBe(192);
  await other.close();
  // What the service worker keeps is the demo's own.
  const cached = await cachedUrls(page);
  expect
    .soft(
      cached.filter((url) => /api\/me|weights\.bin/.test(url)),
      'kept by the service worker',
    )
    .toEqual([]);
  expect(cached.some((url) => url.endsWith('/demo/index.html') || url.endsWith('/demo/'))).toBe(true);

  await page.context().setOffline(true);
  // Another query's answer is never served, and a missing file is not answered with the demo's page.
  const bob = await fetchIn(page, 'api/me?u=bob');
  expect.soft(bob, "?u=bob offline gets no other query's answer").not.toMatchObject({ body: '{"user":"alice"}' });
  expect.soft(bob).toHaveProperty('error');
  const missing = await fetchIn(page, 'assets/missing.js');
  expect.soft(missing, 'a missing file offline is not the page').not.toMatchObject({ type: 'text/html' });
  expect.soft(missing).toHaveProperty('error');
  // The demo itself still comes from the cache, isolated.
  await page.reload();
  await ready(page);
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
  await close();
}, 300_000);
