// What a visitor sees between sending a request and its answer (issue 32, "work you can see"), in the demo as
// `npm start` serves it, in demo mode: the stand-in engine reads for a while before its first word
// (?readDelay, as a CPU model reads its prompt) and names each call before it has written it whole, as a
// model's stream does. The order of what the chat shows is recorded as it changes (a MutationObserver), so
// the tests assert what came before what, never how long anything took.
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { ViteDevServer } from 'vite';
import type { Browser, Route } from 'playwright-core';
import {
  answered,
  cards,
  chatSeen,
  eventually,
  launchChromium,
  ready,
  say,
  serveDemo,
  shot,
  sizes,
  visit,
  watchChat,
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

const firstAt = (lines: string[], test: (line: string) => boolean) => lines.findIndex(test);

test.each([
  ['phone', 'light'],
  ['desktop', 'dark'],
] as const)(
  'at %s size in %s: from the moment a request is sent the chat says the model is reading it, and a call shows its card while the model writes it, before the tool has run',
  async (size, scheme) => {
    const { page, problems, close } = await visit(browser, url, { size, scheme });
    await watchChat(page, { fromNextLoad: true });
    await page.goto(`${url}?readDelay=2500&tokenDelay=500`);
    await ready(page);

    await say(page, 'Remember to buy milk');
    // Reading: the line is there before any word of the model, and counts the seconds.
    const line = page.locator('#log li.msg.working');
    await line.waitFor();
    expect(await line.locator('.working-text').textContent()).toBe('Reading your request…');
    // How much of the request the model has read (the stand-in reads in four batches), and for how long.
    await eventually(() => line.locator('.working-time').textContent()).toMatch(/^[1-9]\d?% · [12] s$/);
    // Below the request it is about, where the answer will come.
    expect(await page.$eval('#log', (log) => log.lastElementChild?.className)).toBe('msg working');
    expect(await page.$eval('#log li.msg.working', (item) => item.previousElementSibling?.textContent)).toBe(
      'Remember to buy milk',
    );
    await shot(page, `demo-working-reading-${size}-${scheme}`);
    // The call's card, named, while the model still writes its arguments.
    const card = page.locator('#log li.card[data-state="writing"]');
    await card.waitFor();
    expect(await card.locator('.card-name').textContent()).toBe('Add to-do');
    expect(await card.locator('.card-state').textContent()).toBe('Writing the call…');
    // The stand-in takes 2 s to write it (4 tokens' delay): the card counts the seconds meanwhile.
    await eventually(() => page.locator('#log li.card[data-state="writing"] .card-ms').textContent()).toBe('1 s');
    await shot(page, `demo-working-writing-${size}-${scheme}`);

    expect(await answered(page)).toBe('I added “Buy milk” to your list.');
    expect(await cards(page)).toEqual(['add_todo done']);
    await shot(page, `demo-working-answered-${size}-${scheme}`);

    const lines = await chatSeen(page);
    const reading = firstAt(lines, (l) => l.includes('working: Reading your request…'));
    const wrote = firstAt(lines, (l) => l.includes('model wrote'));
    const writing = firstAt(lines, (l) => l.includes('add_todo writing'));
    const done = firstAt(lines, (l) => l.includes('add_todo done'));
    // The working line came first, and gave way to the model's first words.
    expect(reading, lines.join('\n')).toBeGreaterThan(-1);
    expect(reading).toBeLessThan(wrote);
    expect(lines[wrote]).not.toContain('working: Reading your request');
    // The card was there, being written, before its tool ran and finished; the same card, not a second one.
    expect(writing).toBeGreaterThan(-1);
    expect(writing).toBeLessThan(done);
    expect(lines.every((l) => (l.match(/add_todo/g) ?? []).length <= 1)).toBe(true);
    // Once the call's result was in, the model read it before it answered: the line said so.
    expect(firstAt(lines, (l) => l.includes('working: Reading the results…'))).toBeGreaterThanOrEqual(done);
    // And when the answer is in, nothing says it is still working.
    expect(await page.locator('#log li.msg.working').count()).toBe(0);
    expect(problems).toEqual([]);
    await close();
  },
);

test('a message sent just before a reload is answered after it, once', async () => {
  const { page, problems, close } = await visit(browser, `${url}?readDelay=3000`, { size: 'phone', scheme: 'light' });
  await say(page, 'add buy bread to my list');
  // The run has recorded the message (the bubble shown at once gave way to it), and the model is still reading.
  await page.waitForSelector('#log li.msg.user:not(.pending)');
  await page.waitForSelector('#log li.msg.working');
  await page.reload();
  await ready(page);
  await eventually(() => page.locator('#log li.msg.model:not(.thought) .text').allTextContents()).toEqual([
    'I added “Buy bread” to your list.',
  ]);
  await eventually(() => page.locator('#todos li span').allTextContents()).toEqual(['Buy bread']);
  expect(await page.locator('#log li.msg.user').allTextContents()).toEqual(['add buy bread to my list']);
  expect(await page.locator('#log li.msg.error').count()).toBe(0);
  await shot(page, 'demo-reload-answered-phone-light');
  expect(problems).toEqual([]);
  await close();
});

test('a message the agent had not taken yet when the page reloaded stays in sight, marked as not sent, and can be sent again', async () => {
  const context = await browser.newContext({ viewport: sizes.phone, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  // The engine module never arrives: the agent cannot finish starting, so the message waits for it.
  let holding = true;
  await context.route('**/demo/engine/stand-in.ts*', (route) => (holding ? undefined : route.continue()));
  await page.goto(url, { waitUntil: 'domcontentloaded' });
  await page.fill('#prompt', 'add buy bread to my list');
  await page.press('#prompt', 'Enter');
  await page.waitForSelector('#log li.msg.user.pending');
  expect(await page.textContent('#log li.msg.working')).toContain('Getting the model ready…');
  holding = false;
  await page.reload();
  await ready(page);
  const unsent = page.locator('#log li.msg.user.unsent');
  await unsent.waitFor();
  expect(await unsent.locator('.unsent-reason').textContent()).toBe(
    'Not sent: the page was reloaded before the agent could take it.',
  );
  await shot(page, 'demo-reload-unsent-phone');
  await unsent.getByRole('button', { name: 'Send this again' }).click();
  expect(await answered(page)).toBe('I added “Buy bread” to your list.');
  expect(await page.locator('#log li.msg.user').allTextContents()).toEqual(['add buy bread to my list']);
  await context.close();
});

test('after a reload the conversation and the page are back at once, from storage, while the agent still starts; a line counts the seconds until it is ready', async () => {
  const { page, problems, close } = await visit(browser, url, { size: 'phone', scheme: 'light' });
  await say(page, 'add buy tea to my list');
  expect(await answered(page)).toBe('I added “Buy tea” to your list.');
  // The engine module is held back after the reload: the agent cannot finish starting, as a model loading.
  const held: Route[] = [];
  await page.context().route('**/demo/engine/stand-in.ts*', (route) => void held.push(route));
  await page.reload({ waitUntil: 'domcontentloaded' });
  await eventually(() => page.locator('#log li.msg.model:not(.thought) .text').allTextContents()).toEqual([
    'I added “Buy tea” to your list.',
  ]);
  expect(await page.locator('#log li.msg.user').allTextContents()).toEqual(['add buy tea to my list']);
  expect(await cards(page)).toEqual(['add_todo done']);
  expect(await page.locator('#todos li span').allTextContents()).toEqual(['Buy tea']);
  const line = page.locator('#log li.msg.working');
  expect(await line.locator('.working-text').textContent()).toBe('Getting the model ready…');
  await eventually(() => line.locator('.working-time').textContent()).toMatch(/^[1-9] s$/);
  await shot(page, 'demo-restoring-phone-light');
  // The module arrives: the agent takes the conversation shown, and the line goes.
  await page.context().unroute('**/demo/engine/stand-in.ts*');
  for (const route of held.splice(0)) await route.continue();
  await ready(page);
  await eventually(() => line.count()).toBe(0);
  expect(await page.locator('#log li.msg.user').allTextContents()).toEqual(['add buy tea to my list']);
  expect(await cards(page)).toEqual(['add_todo done']);
  // The card as the agent's tools name it, and the page put back once, not twice.
  expect(await page.locator('#log li.card .card-name').allTextContents()).toEqual(['Add to-do']);
  expect(await page.locator('#todos li span').allTextContents()).toEqual(['Buy tea']);
  expect(problems).toEqual([]);
  await close();
});

test('a restored conversation shows a base model’s finished runs as finished, never as an error, after a reload too', async () => {
  const { page, problems, close } = await visit(browser, url, { size: 'desktop', scheme: 'light' });
  await say(page, 'add tea');
  await answered(page);
  await page.click('#insight-button');
  await page.click('#tab-sessions');
  await page.waitForSelector('#sessions li');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-session')]);
  const jsonl = Buffer.concat(await (await download.createReadStream()).toArray()).toString('utf8');
  // The same run as a base model ends it (createAgent({ maxSteps: 1 })): its one step's call ran, then the
  // run stopped at its step limit, with no reply in words.
  const [header, ...events] = jsonl
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  const kept = events.slice(0, events.findIndex((event) => event.content?.role === 'tool') + 1);
  const last = kept.at(-1);
  const ending = {
    id: `${last.id}-end`,
    sessionId: last.sessionId,
    invocationId: last.invocationId,
    seq: last.seq + 1,
    author: kept.find((event) => event.content?.role === 'model').author,
    timestamp: last.timestamp + 1,
    error: {
      code: 'max-steps',
      message:
        'The run stopped after 1 model steps without a final answer (maxSteps). Raise createAgent({ maxSteps }) or simplify the request.',
    },
    endReason: 'max-steps',
  };
  const oneStep = [{ ...header, eventCount: kept.length + 1 }, ...kept, ending].map((line) => JSON.stringify(line));
  await page.setInputFiles('#import-file', {
    name: 'base-model.jsonl',
    mimeType: 'application/x-ndjson',
    buffer: Buffer.from(oneStep.join('\n')),
  });
  await page.waitForFunction(() => document.querySelectorAll('#sessions li').length === 2);
  await ready(page);
  await page.keyboard.press('Escape');
  for (const when of ['imported', 'reloaded']) {
    if (when === 'reloaded') {
      await page.reload();
      await ready(page);
    }
    await eventually(() => page.locator('#log li.msg.status-line').allTextContents()).toEqual([
      'Done. This model runs one tool per request and does not reply.',
    ]);
    expect(await cards(page), when).toEqual(['add_todo done']);
    expect(await page.locator('#log li.msg.error').count(), when).toBe(0);
  }
  await shot(page, 'demo-restored-base-run-desktop-light');
  expect(problems).toEqual([]);
  await close();
});
