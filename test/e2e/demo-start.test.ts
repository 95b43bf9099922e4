// The demo as `npm start` serves it, in Chromium without WebGPU: demo mode, where an engine module
// of rules stands in for a model, through the real worker, tools, approval, sessions and toolkit.
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { ViteDevServer } from 'vite';
import type { Browser, Page } from 'playwright-core';
import { understand } from '../../demo/engine/understand';
import {
  answered,
  cards,
  eventually,
  launchChromium,
  newestInView,
  ready,
  say,
  serveDemo,
  shot,
  visit,
} from './demo-visitor';

let server: ViteDevServer;
let browser: Browser;
let url: string;

beforeAll(async () => {
  ({ server, url } = await serveDemo());
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const todos = (page: Page) => page.locator('#todos li span').allTextContents();

test.each([
  ['desktop', 'light'],
  ['phone', 'dark'],
] as const)(
  'at %s size in %s: a visitor types requests in their own words and sees the right tools run and the page change',
  async (size, scheme) => {
    const { page, problems, close } = await visit(browser, url, { size, scheme });
    // Labelled as what it is, in the header and above the chat; the empty chat offers prompts.
    expect(await page.textContent('#model-label')).toContain('Demo mode');
    expect(await page.textContent('#mode-banner')).toContain('Demo mode: no AI model is running.');
    // The prompts are offered once the (empty) session is shown, a moment after the agent is ready.
    await eventually(() => page.locator('#empty-suggestions .suggestion').count()).toBeGreaterThanOrEqual(5);

    await say(page, 'Remember to buy milk and to call Ana', { enter: true });
    expect(await answered(page)).toBe('I added “Buy milk” and “Call Ana” to your list.');
    expect(await todos(page)).toEqual(['Buy milk', 'Call Ana']);

    await say(page, 'mark milk done', { enter: true });
    expect(await answered(page)).toBe('Marked “Buy milk” as done.');
    expect(await page.locator('#todos li.done span').allTextContents()).toEqual(['Buy milk']);

    await say(page, 'note: call the plumber about the sink', { enter: true });
    await answered(page);
    expect(await page.locator('#notes article p').allTextContents()).toEqual(['Call the plumber about the sink']);

    await say(page, 'Sort the products by price, most expensive first', { enter: true });
    expect(await answered(page)).toBe('Sorted the products by price, highest first: Grinder, Kettle, Teapot, Mug.');
    expect(await page.locator('#products tbody td:first-child').allTextContents()).toEqual([
      'Grinder',
      'Kettle',
      'Teapot',
      'Mug',
    ]);

    await say(page, 'what’s on my list?', { enter: true });
    expect(await answered(page)).toBe('Open: “Call Ana”. Done: “Buy milk”.');

    // One card per call, paired with its result.
    expect(await cards(page)).toEqual([
      'add_todo done',
      'add_todo done',
      'complete_todo done',
      'add_note done',
      'sort_table done',
      'list_todos done',
    ]);
    // The newest answer is in view, not cut off below the composer.
    const last = await page.locator('#log li.msg.model').last().boundingBox();
    const composer = await page.locator('#ask').boundingBox();
    expect(last!.y + last!.height).toBeLessThanOrEqual(composer!.y + 1);
    await shot(page, `demo-conversation-${size}-${scheme}`);

    // A call that fails shows on its card and in the answer, plainly.
    await say(page, 'mark coffee done', { enter: true });
    expect(await answered(page)).toBe('I could not find a to-do matching “coffee”. Your list has: Buy milk, Call Ana.');
    expect((await cards(page)).at(-1)).toBe('complete_todo failed');
    expect(await page.locator('#log li.card').last().locator('.card-note').textContent()).toContain(
      'No to-do matches "coffee"',
    );

    // A visitor who scrolls up to read is left there while an answer streams in, and offered the way back.
    await say(page, 'Hello! What can you do?', { enter: true });
    await page.$eval('#scroller', (scroller) => scroller.scrollTo({ top: 0 }));
    await answered(page);
    expect(await page.$eval('#scroller', (scroller) => scroller.scrollTop)).toBeLessThan(50);
    await page.click('#jump');
    // The jump may scroll smoothly: wait until the newest answer has come into view above the composer.
    await eventually(async () => {
      const newest = (await page.locator('#log li.msg.model').last().boundingBox())!;
      return newest.y + newest.height - (await page.locator('#ask').boundingBox())!.y;
    }).toBeLessThanOrEqual(1);

    // Something it does not understand is answered honestly.
    await say(page, 'What is the capital of France?', { enter: true });
    expect(await answered(page)).toMatch(
      /^Without a local model I only understand requests about this page’s to-dos, notes, products and form\./,
    );
    // Text from the visitor is text, never HTML.
    await say(page, '<img src=x onerror=alert(1)>', { enter: true });
    await answered(page);
    expect(await page.locator('#log img').count()).toBe(0);
    expect(await page.locator('#log li.msg.user').last().textContent()).toBe('<img src=x onerror=alert(1)>');
    expect(problems).toEqual([]);
    await close();
  },
);

test('Stop during a streamed answer keeps what arrived, says it stopped, and the next message works', async () => {
  const { page, problems, close } = await visit(browser, `${url}?tokenDelay=250`, { size: 'phone', scheme: 'light' });
  await say(page, 'Hello! What can you do?');
  // Words arrive one by one.
  await page.waitForFunction(
    () =>
      (
        document.querySelector('inpage-agent-chat')!.shadowRoot!.querySelector('#log li.msg.model .text')
          ?.textContent ?? ''
      ).length > 0,
  );
  const early = await page.locator('#log li.msg.model .text').last().textContent();
  await page.waitForFunction(
    (n) =>
      (
        document.querySelector('inpage-agent-chat')!.shadowRoot!.querySelector('#log li.msg.model .text')
          ?.textContent ?? ''
      ).length > n,
    early!.length,
  );
  await page.click('#stop');
  await answered(page);
  const stopped = (await page.locator('#log li.msg.model .text').last().textContent())!;
  const whole = (understand('Hello! What can you do?') as { text: string }).text;
  expect(stopped.length).toBeGreaterThan(early!.length);
  expect(stopped.length).toBeLessThan(whole.length);
  expect(whole.startsWith(stopped)).toBe(true);
  expect(await page.locator('#log li.msg.status-line').last().textContent()).toBe('Stopped.');
  await shot(page, 'demo-stop-phone-light');

  await say(page, 'add tea');
  expect(await answered(page)).toBe('I added “Tea” to your list.');
  // Nothing of the stopped answer arrived after Stop, even while the next run streamed.
  expect(await page.locator('#log li.msg.model .text').first().textContent()).toBe(stopped);
  expect(problems).toEqual([]);
  await close();
});

test('approval is asked in the call’s card: “Don’t allow” leaves the list and says so; “Allow” clears it; with the keyboard the dialog asks', async () => {
  const { page, problems, close } = await visit(browser, url, { size: 'desktop', scheme: 'dark' });
  await say(page, 'add eggs and bread');
  await answered(page);

  await say(page, 'clear the list');
  await page.waitForSelector('#log li.card[data-state="approval"]');
  expect(await page.isVisible('#approval[open]')).toBe(false);
  await shot(page, 'demo-approval-desktop-dark');
  await page.click('#log li.card[data-state="approval"] button[data-choice="deny"]');
  expect(await answered(page)).toBe('I did not run clear_todos: you chose not to allow it, so nothing changed.');
  expect(await cards(page)).toContain('clear_todos denied');
  expect(await todos(page)).toEqual(['Eggs', 'Bread']);

  await say(page, 'Clear all my to-dos');
  await page.click('#log li.card[data-state="approval"] button[data-choice="allow"]');
  expect(await answered(page)).toBe('Done: I removed all 2 to-dos; the list is empty.');
  expect(await todos(page)).toEqual([]);
  await eventually(() => newestInView(page)).toBe(true);

  // A keyboard user gets the accessible dialog too, with focus on the safe choice.
  await say(page, 'add milk', { enter: true });
  await answered(page);
  await say(page, 'clear the list', { enter: true });
  await page.waitForSelector('#approval[open]');
  expect(await page.evaluate(() => document.activeElement?.id)).toBe('approval-reject');
  await page.keyboard.press('Enter');
  expect(await answered(page)).toMatch(/you chose not to allow it/);
  expect(await page.isVisible('#approval[open]')).toBe(false);
  expect(await todos(page)).toEqual(['Milk']);
  expect(problems).toEqual([]);
  await close();
});

test('a reload while a call waits for approval: the card says it was not run because the page was reloaded, and Ask again asks again', async () => {
  const { page, problems, close } = await visit(browser, url, { size: 'phone', scheme: 'dark' });
  await say(page, 'add milk');
  await answered(page);
  await say(page, 'clear the list');
  await page.waitForSelector('#log li.card[data-state="approval"]');

  await page.reload();
  await ready(page);
  // The session is shown again a moment after the agent is ready: wait for the card to say what happened.
  const card = page.locator('#log li.card[data-tool="clear_todos"]');
  await eventually(() => card.getAttribute('data-state')).toBe('interrupted');
  expect(await card.locator('.card-note').textContent()).toBe(
    'Not run: the page was reloaded while this waited for your answer.',
  );
  await eventually(() => todos(page)).toEqual(['Milk']);
  await shot(page, 'demo-reloaded-phone-dark');

  await card.locator('button', { hasText: 'Ask again' }).click();
  await page.waitForSelector('#log li.card[data-state="approval"]');
  await page.click('#log li.card[data-state="approval"] button[data-choice="allow"]');
  expect(await answered(page)).toBe('Done: I removed the one to-do; the list is empty.');
  expect(await todos(page)).toEqual([]);
  // The visitor's decision is like a message: the chat follows what it led to, the answer in view.
  await eventually(() => newestInView(page)).toBe(true);
  await shot(page, 'demo-allowed-phone-dark');
  expect(problems).toEqual([]);
  await close();
});
