/**
 * For the demo's end-to-end tests: a visitor in Chromium at a phone's or a desktop's size, in
 * light or dark, who types, waits for answers, and notices console errors and failed requests.
 */
import { chromium, type Browser, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { createServer, type InlineConfig, type ViteDevServer } from 'vite';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { chromiumArgs, findChromium } from '../../scripts/chromium.mjs';

/** Chromium with the flags that keep it quiet on a closed network, and `args`. */
export function launchChromium(args: string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: findChromium(), args: [...chromiumArgs, ...args] });
}

/** The demo as `npm start` serves it (vite's dev server), on a free port; `config` over vite.config.ts. */
export async function serveDemo(config: InlineConfig = {}): Promise<{ server: ViteDevServer; url: string }> {
  const server = await createServer({
    ...config,
    root: resolve(import.meta.dirname, '../..'),
    logLevel: 'error',
    server: { host: '127.0.0.1', port: 0 },
  });
  await server.listen();
  return { server, url: server.resolvedUrls!.local[0]! };
}

export const sizes = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const;

export interface Visit {
  page: Page;
  /** Console errors, uncaught errors and responses of 400 or more, as they happened. */
  problems: string[];
  close(): Promise<void>;
}

export async function visit(
  browser: Browser,
  url: string,
  { size, scheme }: { size: keyof typeof sizes; scheme: 'light' | 'dark' },
): Promise<Visit> {
  const context = await browser.newContext({
    viewport: sizes[size],
    colorScheme: scheme,
    acceptDownloads: true,
    ...(size === 'phone' && { isMobile: true, hasTouch: true, deviceScaleFactor: 1 }),
  });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => message.type() === 'error' && problems.push(`console: ${message.text()}`));
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on(
    'response',
    (response) => response.status() >= 400 && problems.push(`${response.status()} ${response.url()}`),
  );
  page.on('dialog', (dialog) => problems.push(`unexpected dialog: ${dialog.message()}`));
  await page.goto(url);
  await ready(page);
  return { page, problems, close: () => context.close() };
}

/** The agent has started (after a load or a reload). */
export async function ready(page: Page): Promise<void> {
  await page.waitForSelector('#status-dot[data-status="ready"]', { timeout: 60_000 });
}

/** Types a message as a person would; `enter` sends with the keyboard, otherwise the Send button. */
export async function say(page: Page, text: string, { enter = false } = {}): Promise<void> {
  const before = await page.locator('#log li.msg.user').count();
  await page.fill('#prompt', text);
  if (enter) await page.press('#prompt', 'Enter');
  else await page.click('#send');
  await page.waitForFunction(
    (n) => document.querySelector('inpage-agent-chat')!.shadowRoot!.querySelectorAll('#log li.msg.user').length > n,
    before,
    {
      timeout: 30_000,
    },
  );
}

/** Waits until the agent has finished answering (Send is back). */
export async function answered(page: Page): Promise<string> {
  await page.waitForFunction(
    () =>
      !document.querySelector('inpage-agent-chat')!.shadowRoot!.querySelector<HTMLElement>('#send')!.hidden &&
      document.querySelector('inpage-agent-chat')!.shadowRoot!.querySelector<HTMLElement>('#stop')!.hidden,
    null,
    { timeout: 30_000 },
  );
  return (await page.locator('#log li.msg.model .text').last().textContent()) ?? '';
}

/** Whether the chat shows its newest message: the last one fully in view, and no "Newest" button offered. */
export function newestInView(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const scroller = document.querySelector('inpage-agent-chat')!.shadowRoot!.querySelector<HTMLElement>('#scroller')!;
    const last = [
      ...document.querySelector('inpage-agent-chat')!.shadowRoot!.querySelectorAll<HTMLElement>('#log > li'),
    ].at(-1);
    if (!last) return true;
    const view = scroller.getBoundingClientRect();
    const item = last.getBoundingClientRect();
    return (
      item.bottom <= view.bottom + 1 &&
      document.querySelector('inpage-agent-chat')!.shadowRoot!.querySelector<HTMLElement>('#jump')!.hidden === true
    );
  });
}

/**
 * Reads `read` until what it gives matches the assertion that follows, as the page's state may lag the
 * action that leads to it (a view drawn after an await, a session replayed after the agent is ready).
 * Under load that lag can be long; the limit only bounds a failure.
 */
export function eventually<T>(read: () => Promise<T> | T) {
  return expect.poll(read, { timeout: 30_000, interval: 50 });
}

export async function shot(page: Page, name: string): Promise<void> {
  mkdirSync('test-results', { recursive: true });
  await page.screenshot({ path: `test-results/${name}.png` });
}

/** The tools whose cards the chat shows, with their state, in order. */
export async function cards(page: Page): Promise<string[]> {
  return page.$$eval('#log li.card', (items) =>
    items.map((item) => `${(item as HTMLElement).dataset.tool} ${(item as HTMLElement).dataset.state}`),
  );
}

/**
 * In the page: records what the chat shows each time it changes, as lines of `window.seen`: the working
 * line's words, whether the model has written words, and each card's tool and state, in order. Tests assert
 * what came before what, never how long anything took.
 */
function recordChat(): void {
  const seen: string[] = [];
  (window as unknown as { seen: string[] }).seen = seen;
  // The conversation is in the chat element's shadow root.
  const logOf = () => document.querySelector('inpage-agent-chat')?.shadowRoot?.querySelector('#log');
  const snapshot = () => {
    const log = logOf()!;
    const working = log.querySelector('li.msg.working .working-text')?.textContent;
    const wrote = [...log.querySelectorAll('li.msg.model')].some((item) => item.textContent?.trim())
      ? 'model wrote'
      : '';
    const shown = [...log.querySelectorAll<HTMLElement>('li.card')].map(
      (card) => `${card.dataset.tool} ${card.dataset.state}`,
    );
    const line = [working ? `working: ${working}` : '', wrote, ...shown].filter(Boolean).join(' | ');
    if (seen.at(-1) !== line) seen.push(line);
  };
  const observe = () => {
    const log = logOf();
    // Not there yet (the element is defined by the page's module): look again next frame.
    if (!log) return void requestAnimationFrame(observe);
    new MutationObserver(snapshot).observe(log, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
      attributeFilter: ['data-state'],
    });
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', observe);
  else observe();
}

/** Records what the chat shows from now on (`fromNextLoad`: from the page's next load on). */
export async function watchChat(page: Page, { fromNextLoad = false } = {}): Promise<void> {
  if (fromNextLoad) await page.addInitScript(recordChat);
  else await page.evaluate(recordChat);
}

/** What the chat showed, in order, since watchChat. */
export function chatSeen(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { seen: string[] }).seen);
}
