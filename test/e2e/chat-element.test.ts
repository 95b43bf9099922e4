// <inpage-agent-chat> from the script-tag build (window.InpageAgent defines it), on a page of its own, at a
// desktop's and a phone's width, in light and dark (the visitor's system scheme, which the chat follows): during
// a call, while a call waits for the person, and with the reply. Each state is reached through the element as a
// visitor uses it (typing, Enter, the card's buttons), checked, and pictured (test-results/chat-*.png; the ones in
// docs/chat/ are copies). Keyboard use: Tab reaches the box, the focus follows the approval card.
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { builtLibrary, serveStatic, type StaticServer } from './built-files';
import { launchChromium, sizes } from './demo-visitor';

let server: StaticServer;
let browser: Browser;

beforeAll(async () => {
  const dist = await builtLibrary();
  server = await serveStatic({ '/vendor/lib/': dist, '/': resolve(import.meta.dirname, 'pages/chat') });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function picture(page: Page, name: string): Promise<void> {
  mkdirSync('test-results', { recursive: true });
  await page.locator('inpage-agent-chat').screenshot({ path: `test-results/chat-${name}.png`, animations: 'disabled' });
}

/** What the chat shows, read in its shadow root. */
const shown = (page: Page) =>
  page.evaluate(() => {
    const root = document.querySelector('inpage-agent-chat')!.shadowRoot!;
    return {
      cards: [...root.querySelectorAll<HTMLElement>('li.card')].map(
        (card) => `${card.dataset.tool} ${card.dataset.state}`,
      ),
      replies: [...root.querySelectorAll('li.msg.model:not(.thought) .text')].map((text) => text.textContent),
      focused: root.activeElement?.getAttribute('data-choice') ?? root.activeElement?.id ?? null,
      order: [...root.querySelector('#log')!.children].map((item) =>
        ['card', 'user', 'model', 'working'].find((kind) => item.classList.contains(kind)),
      ),
      background: getComputedStyle(document.querySelector('inpage-agent-chat')!).backgroundColor,
    };
  });

test.each([
  ['desktop', 'light'],
  ['desktop', 'dark'],
  ['phone', 'light'],
  ['phone', 'dark'],
] as const)(
  'at %s width in %s: a call, an approval and a reply, as a keyboard user meets them',
  async (size, scheme) => {
    const context = await browser.newContext({
      viewport: sizes[size],
      colorScheme: scheme,
      ...(size === 'phone' && { isMobile: true, hasTouch: true, deviceScaleFactor: 1 }),
    });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
    await page.goto(`${server.url}/index.html`);
    await page.waitForFunction(() => (window as { chatReady?: boolean }).chatReady === true);
    expect((await shown(page)).background).toBe(scheme === 'light' ? 'rgb(246, 247, 251)' : 'rgb(15, 18, 24)');

    // Tab reaches the box; Enter sends.
    await page.keyboard.press('Tab');
    expect((await shown(page)).focused).toBe('prompt');
    await page.keyboard.type('Remember to buy milk');
    await page.keyboard.press('Enter');
    await page.locator('li.card[data-state="running"]').waitFor();
    expect((await shown(page)).cards).toEqual(['add_todo running']);
    // Opened for the picture, without moving the visitor's focus: the arguments show.
    await page.evaluate(() => {
      const card = document.querySelector('inpage-agent-chat')!.shadowRoot!.querySelector('li.card details');
      (card as HTMLDetailsElement).open = true;
    });
    // While it runs, Stop has the focus (Escape or Enter stops it).
    expect((await shown(page)).focused).toBe('stop');
    await picture(page, `${size}-${scheme}-call`);

    await page.evaluate(() => (window as unknown as { finishCall(): void }).finishCall());
    await page.locator('li.msg.model .text').waitFor();
    await page.waitForFunction(
      () => !document.querySelector('inpage-agent-chat')!.shadowRoot!.querySelector<HTMLElement>('#send')!.hidden,
    );
    expect(await shown(page)).toMatchObject({
      cards: ['add_todo done'],
      replies: ['I added “Buy milk” to your list. It has one item now.'],
      focused: 'prompt',
    });
    await picture(page, `${size}-${scheme}-reply`);

    await page.keyboard.type('Clear my list');
    await page.keyboard.press('Enter');
    await page.locator('li.card[data-state="approval"]').waitFor();
    // The focus followed the card, to its safe choice.
    expect((await shown(page)).focused).toBe('deny');
    await picture(page, `${size}-${scheme}-approval`);
    // Tab to Allow, Enter: the call runs.
    await page.keyboard.press('Tab');
    expect((await shown(page)).focused).toBe('allow');
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      () =>
        document.querySelector('inpage-agent-chat')!.shadowRoot!.querySelectorAll('li.msg.model:not(.thought) .text')
          .length === 2,
    );
    expect(await shown(page)).toMatchObject({
      cards: ['add_todo done', 'clear_todos done'],
      replies: ['I added “Buy milk” to your list. It has one item now.', 'Done: your list is empty.'],
    });
    expect(await page.locator('#todos li').count()).toBe(0);
    // Nothing wider than the chat, at either width.
    const overflow = await page.evaluate(() => {
      const scroller = document
        .querySelector('inpage-agent-chat')!
        .shadowRoot!.querySelector<HTMLElement>('#scroller')!;
      return scroller.scrollWidth - scroller.clientWidth;
    });
    expect(overflow).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  },
);
