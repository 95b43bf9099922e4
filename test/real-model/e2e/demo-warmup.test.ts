// The demo reads the constant part of its prompt ahead (issue 32 item 2), as `npm start` serves it, in Chromium
// without WebGPU, with the smallest real GGUF model (Gemma 3 270M, the base model: our markup with its worked
// example, the demo's instructions and its seven tools). A message sent while it reads shows how far it got.
// Once the model has loaded, the model panel says what was read ahead; the first request's model step found
// exactly that many tokens in llama.cpp's cache (its usage, in the timeline's event detail); a new session keeps
// the loaded model and what it read, and its first request reads only itself too.
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { ViteDevServer } from 'vite';
import type { Browser, Page } from 'playwright-core';
import { chatSeen, launchChromium, ready, say, serveDemo, shot, visit, watchChat } from '../../e2e/demo-visitor';
import { hasRealModel } from '../real-model';

const realModel = hasRealModel();
let server: ViteDevServer;
let browser: Browser;
let url: string;

beforeAll(async () => {
  if (!realModel) return;
  ({ server, url } = await serveDemo());
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** The model panel's line on what was read ahead, once it is there: its token counts. */
async function readAhead(page: Page, timeout: number): Promise<{ prompt: number; read: number; text: string }> {
  await page.waitForFunction(
    () => /^Read ahead:/.test(document.querySelector('#read-ahead')?.textContent ?? ''),
    null,
    { timeout },
  );
  const text = (await page.textContent('#read-ahead'))!;
  const [, prompt, read] = /, (\d+) tokens \((\d+) read now\)/.exec(text)!;
  return { prompt: Number(prompt), read: Number(read), text };
}

/** Waits until the run is over (Send is back). */
async function finished(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      !document.querySelector('inpage-agent-chat')!.shadowRoot!.querySelector<HTMLElement>('#send')!.hidden &&
      document.querySelector('inpage-agent-chat')!.shadowRoot!.querySelector<HTMLElement>('#stop')!.hidden,
    null,
    { timeout: 600_000 },
  );
}

/** The usage of the session's first model step, from the timeline's event detail. */
async function firstStepUsage(page: Page): Promise<{ promptTokens: number; cachedPromptTokens: number }> {
  await page.click('#insight-button');
  await page.click('#tab-timeline');
  await page.click('.timeline-row.kind-model');
  const detail = JSON.parse((await page.textContent('#event-detail'))!) as {
    usage: { promptTokens: number; cachedPromptTokens: number };
  };
  await page.keyboard.press('Escape');
  return detail.usage;
}

test.skipIf(!realModel)(
  'the demo reads its instructions and tools ahead once a model has loaded, and a new session keeps the model and what it read: each first request reads only itself',
  async () => {
    const { page, problems, close } = await visit(browser, url, { size: 'desktop', scheme: 'light' });
    await page.click('#model-button');
    await page.waitForFunction(() => document.querySelectorAll('#model-select option').length > 3);
    await page.selectOption('#model-select', 'gguf:gemma-3-270m-q4_k_m');
    await page.click('#load-model');
    await page.waitForFunction(
      () =>
        document.querySelector('#progress')!.hasAttribute('hidden') &&
        /llama\.cpp/.test(document.querySelector('#model-label')?.textContent ?? ''),
      null,
      { timeout: 180_000 },
    );
    await ready(page);
    const label = await page.textContent('#model-label');
    // The model panel, still open after the load, says how far the model has read ahead while it reads (llama.cpp counts
    // after each piece).
    await page.waitForFunction(
      () =>
        /^Reading ahead the instructions, the page's tools and the conversation so far: [1-9]\d?% of about \d+ tokens\./.test(
          document.querySelector('#read-ahead')?.textContent ?? '',
        ),
      null,
      { timeout: 60_000 },
    );
    console.info(`model panel: ${await page.textContent('#read-ahead')}`);
    await shot(page, 'demo-model-panel-reading-ahead-desktop-light');

    // Read ahead in the background, while the visitor types. A message sent meanwhile waits for it, and the
    // working line says what the model reads: first the instructions and tools, then the message.
    await page.keyboard.press('Escape');
    await watchChat(page);
    await say(page, 'Remember to buy milk');
    await page.waitForSelector('#log li.msg.working');
    expect(await page.textContent('#log li.msg.working .working-text')).toBe(
      'Reading the instructions and tools first…',
    );
    // How far it has read them shows beside the seconds (llama.cpp's count, a piece at a time), before the end.
    await page.waitForFunction(
      () =>
        document.querySelector('inpage-agent-chat')!.shadowRoot!.querySelector('#log li.msg.working .working-text')
          ?.textContent === 'Reading the instructions and tools first…' &&
        /^[1-9]\d?% · \d+ s$/.test(
          document.querySelector('inpage-agent-chat')!.shadowRoot!.querySelector('#log li.msg.working .working-time')
            ?.textContent ?? '',
        ),
      null,
      { timeout: 120_000 },
    );
    console.info(`reading ahead: ${await page.textContent('#log li.msg.working .working-time')}`);
    await shot(page, 'demo-reading-ahead-desktop-light');
    await page.click('#model-button');
    const first = await readAhead(page, 600_000);
    console.info(`demo, Gemma 3 270M: ${first.text}`);
    expect(first.read).toBe(first.prompt);
    expect(first.prompt).toBeGreaterThan(300);
    await shot(page, 'demo-read-ahead-desktop-light');
    await page.keyboard.press('Escape');
    await finished(page);
    const seen = (await chatSeen(page)).filter(Boolean).map((line) => line.split(' | ')[0]);
    const ahead = seen.indexOf('working: Reading the instructions and tools first…');
    const request = seen.indexOf('working: Reading your request…');
    console.info(`what the chat showed: ${seen.join(' → ')}`);
    // Each said once the model got to it, before the call's card or any reply.
    expect(ahead).toBeGreaterThanOrEqual(0);
    expect(request).toBeGreaterThan(ahead);
    expect(seen.slice(0, request + 1).every((line) => line.startsWith('working:'))).toBe(true);
    const usage = await firstStepUsage(page);
    console.info(
      `first request: ${usage.cachedPromptTokens} cached + ${usage.promptTokens - usage.cachedPromptTokens} prefilled`,
    );
    expect(usage.cachedPromptTokens).toBe(first.prompt);
    expect(usage.promptTokens - usage.cachedPromptTokens).toBeLessThan(24);

    // A new session: the same agent and model (no download or load again), the prefix still held.
    await page.click('#insight-button');
    await page.click('#tab-sessions');
    await page.click('#new-session');
    await page.waitForFunction(() => document.querySelectorAll('#sessions li').length === 2);
    await page.waitForFunction(
      () => document.querySelector('inpage-agent-chat')!.shadowRoot!.querySelectorAll('#log li.msg.user').length === 0,
    );
    await ready(page);
    expect(await page.textContent('#model-label')).toBe(label);
    await page.click('#tab-model');
    await page.waitForFunction(
      (before) => !document.querySelector('#read-ahead')?.textContent?.includes(before),
      first.text,
      { timeout: 120_000 },
    );
    const second = await readAhead(page, 1000);
    console.info(`new session: ${second.text}`);
    expect(second.prompt).toBe(first.prompt);
    expect(second.read).toBeLessThanOrEqual(1);
    expect(await page.isHidden('#progress')).toBe(true);
    await page.keyboard.press('Escape');

    await say(page, 'Note: the meeting is at ten');
    await finished(page);
    const next = await firstStepUsage(page);
    console.info(
      `new session's first request: ${next.cachedPromptTokens} cached + ${next.promptTokens - next.cachedPromptTokens} prefilled`,
    );
    expect(next.cachedPromptTokens).toBe(first.prompt);
    expect(next.promptTokens - next.cachedPromptTokens).toBeLessThan(24);
    expect(problems).toEqual([]);
    await close();
  },
  1_200_000,
);
