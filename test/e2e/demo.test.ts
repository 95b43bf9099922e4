// The static demo as `npm run build` writes it to dist-demo/, served from a sub-folder of a static
// host, in Chromium without WebGPU (demo mode: the stand-in engine module, built to its own file).
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { builtDemo, serveStatic, type StaticServer } from './built-files';
import { answered, cards, eventually, launchChromium, ready, say, shot, visit } from './demo-visitor';

let server: StaticServer;
let browser: Browser;

beforeAll(async () => {
  const out = await builtDemo();
  server = await serveStatic({ '/apps/demo/': out });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const demoUrl = () => `${server.url}/apps/demo/`;

test('a first visit logs no console error and requests nothing that is missing (favicon and manifest included); it is installable and dark when the system is', async () => {
  const { page, problems, close } = await visit(browser, demoUrl(), { size: 'desktop', scheme: 'dark' });
  const manifestUrl = await page.evaluate(() => document.querySelector<HTMLLinkElement>('link[rel="manifest"]')!.href);
  const manifest = await (await page.request.get(manifestUrl)).json();
  expect(manifest).toMatchObject({ display: 'standalone', start_url: './' });
  for (const icon of manifest.icons as { src: string }[])
    expect((await page.request.get(new URL(icon.src, manifestUrl).href)).status()).toBe(200);
  expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(15, 18, 24)');

  await say(page, 'Fill the contact form for Ana');
  expect(await answered(page)).toBe(
    'The contact form is filled in for “Ana”. Check it and send it yourself; I do not send anything.',
  );
  expect(await page.inputValue('#form-email')).toBe('ana@example.org');
  await shot(page, 'demo-built-desktop-dark');
  expect(problems).toEqual([]);
  await close();
});

test('insight: the timeline and the toolkit graph read at their size, name rounded figures, and lead to the events they show', async () => {
  const { page, problems, close } = await visit(browser, demoUrl(), { size: 'desktop', scheme: 'light' });
  await say(page, 'Remember to buy milk and to call Ana');
  await answered(page);
  await say(page, 'sort products by stock');
  await answered(page);

  await page.click('#insight-button');
  const rows = page.locator('.timeline-row');
  await eventually(() => rows.count()).toBe(8);
  const fontSizes = await page.$$eval('.timeline-label', (labels) =>
    labels.map((label) => parseFloat(getComputedStyle(label).fontSize)),
  );
  expect(Math.min(...fontSizes)).toBeGreaterThanOrEqual(11);
  const names = await rows.evaluateAll((buttons) => buttons.map((button) => button.getAttribute('aria-label')!));
  expect(names[1]).toMatch(/^#2 calls add_todo, add_todo, \d+ ms$/);
  expect(names.join(' ')).not.toMatch(/\d\.\d{2,}/);
  // Selecting a row shows the event and points at its message in the chat.
  await rows.nth(3).click();
  await eventually(() => page.textContent('#event-detail')).toContain(
    'I added “Buy milk” and “Call Ana” to your list.',
  );
  await eventually(() => page.locator('#log .flash').count()).toBe(1);
  await shot(page, 'demo-timeline-desktop-light');

  await page.click('#tab-graph');
  await page.waitForSelector('#graph svg');
  // Drawn at 100% or more, so its 12 px labels stay 12 px on screen.
  const scale = await page.$eval(
    '#graph svg',
    (svg) => svg.getBoundingClientRect().width / (svg as SVGSVGElement).viewBox.baseVal.width,
  );
  expect(scale).toBeGreaterThanOrEqual(1);
  const labelSize = await page.$eval('#graph svg .label', (label) => parseFloat(getComputedStyle(label).fontSize));
  expect(labelSize * scale).toBeGreaterThanOrEqual(11);
  await page.click('#zoom-in');
  await eventually(() => page.textContent('#zoom-level')).toBe('125%');
  await shot(page, 'demo-graph-desktop-light');
  // A tool in the graph leads to its calls in the timeline.
  await page.click('#graph g[data-id="sort_table"]');
  await eventually(() => page.textContent('#timeline-filter')).toContain('Showing the calls of sort_table.');
  await eventually(() => page.locator('.timeline-row').count()).toBe(2);

  // The table is filled after the agent answers stats(): read it once it has its rows.
  await page.click('#tab-stats');
  const statRows = () =>
    page
      .locator('#stats tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')));
  await eventually(async () => (await statRows()).map((row) => row.slice(0, 3))).toEqual([
    ['Add to-do', '2', '0'],
    ['Sort table', '1', '0'],
  ]);
  expect((await statRows()).every((row) => /^\d+ ms$/.test(row[3]!))).toBe(true);
  await page.keyboard.press('Escape');
  await eventually(() => page.isVisible('#drawer')).toBe(false);
  expect(problems).toEqual([]);
  await close();
});

test('sessions: export downloads JSONL; import refuses a corrupted file by line, opens a good one titled with its date; Delete is immediate and can be undone', async () => {
  const { page, problems, close } = await visit(browser, demoUrl(), { size: 'desktop', scheme: 'light' });
  await say(page, 'Remember to buy milk and to call Ana');
  await answered(page);
  await page.click('#insight-button');
  await page.click('#tab-sessions');
  await page.waitForSelector('#sessions li');
  // The file picker is reached with Tab, and its visible label shows the focus ring.
  await page.focus('#export-session');
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.activeElement?.id)).toBe('import-file');
  expect(await page.$eval('#import-label', (label) => getComputedStyle(label).outlineStyle)).toBe('solid');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-session')]);
  const jsonl = Buffer.concat(await (await download.createReadStream()).toArray()).toString('utf8');
  expect(jsonl.split('\n')[0]).toContain('"type":"session"');

  const lines = jsonl.trim().split('\n');
  const corrupt = [lines[0], lines[1], '{"id": broken', ...lines.slice(2)].join('\n');
  await page.setInputFiles('#import-file', {
    name: 'bad.jsonl',
    mimeType: 'application/x-ndjson',
    buffer: Buffer.from(corrupt),
  });
  await page.waitForFunction(() => document.querySelector('#import-status')?.textContent?.includes('line 3'));
  expect(await page.textContent('#import-status')).toMatch(/^Could not import “bad.jsonl”/);
  expect(await page.locator('#sessions li').count()).toBe(1);

  await page.setInputFiles('#import-file', {
    name: 'good.jsonl',
    mimeType: 'application/x-ndjson',
    buffer: Buffer.from(jsonl),
  });
  await page.waitForFunction(() => document.querySelectorAll('#sessions li').length === 2);
  await ready(page);
  // The copy is open, with the same conversation and the page as it left it, and a title that tells it apart
  // (the agent is ready a moment before the session's events are shown again).
  await eventually(() => page.locator('#log li.msg.user').allTextContents()).toEqual([
    'Remember to buy milk and to call Ana',
  ]);
  await eventually(() => page.locator('#todos li span').allTextContents()).toEqual(['Buy milk', 'Call Ana']);
  const day = new Date().toLocaleDateString('en-US', { dateStyle: 'medium' });
  await eventually(() => page.locator('#sessions li strong').allTextContents()).toEqual(
    expect.arrayContaining([
      `Remember to buy milk and to call Ana (imported ${day})`,
      'Remember to buy milk and to call Ana',
    ]),
  );
  await shot(page, 'demo-sessions-desktop-light');

  // Delete: gone at once, and Undo brings it back.
  const original = page.locator('#sessions li:not(.current)');
  await original.locator('button', { hasText: 'Delete' }).click();
  await eventually(() => page.locator('#sessions li').count()).toBe(1);
  await page.waitForFunction(() => document.querySelector('#toast')?.textContent?.startsWith('Deleted'));
  expect(await page.textContent('#toast')).toContain('Deleted “Remember to buy milk and to call Ana”.');
  await page.click('#toast button');
  await page.waitForFunction(() => document.querySelectorAll('#sessions li').length === 2);
  await page.waitForFunction(() => document.querySelector('#toast')?.textContent?.startsWith('Restored'));
  expect(problems).toEqual([]);
  await close();
});

test('after one visit, the built demo loads and answers in demo mode with the network off', async () => {
  const { page, problems, close } = await visit(browser, demoUrl(), { size: 'phone', scheme: 'light' });
  // The service worker has cached the shell, the workers and the stand-in engine once it controls the page.
  await page.waitForFunction(
    async () => Boolean((await navigator.serviceWorker.ready) && navigator.serviceWorker.controller),
    null,
    { timeout: 30_000 },
  );
  // What it cached is the demo's: not the BFCL self-test's benchmark data, megabytes the demo never reads.
  const cached = await page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys()) urls.push(...(await (await caches.open(name)).keys()).map((r) => r.url));
    return urls;
  });
  expect(cached.some((url) => url.includes('stand-in-engine'))).toBe(true);
  expect(cached.filter((url) => url.includes('BFCL_v4'))).toEqual([]);
  await page.context().setOffline(true);
  await page.reload();
  await ready(page);
  await say(page, 'add buy milk and call Ana');
  expect(await answered(page)).toBe('I added “Buy milk” and “Call Ana” to your list.');
  expect(await cards(page)).toEqual(['add_todo done', 'add_todo done']);
  expect(await page.locator('#todos li span').allTextContents()).toEqual(['Buy milk', 'Call Ana']);
  await shot(page, 'demo-offline-phone-light');
  expect(problems).toEqual([]);
  await close();
});
