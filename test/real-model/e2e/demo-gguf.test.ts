// The demo's model picker in Chromium without WebGPU (what most visitors without a graphics chip
// have), as `npm start` serves it: real GGUF models on the CPU, served from the demo's own origin
// (from PyPI, scripts/model-files.mjs), their sizes and expected speeds shown before the download.
// Qwen2.5-Coder 0.5B Instruct is suggested (demo-qwen.test.ts runs it); Gemma 3 270M, the base model,
// is offered with its limits in sight, then loaded with progress, answering, and marked as downloaded
// afterwards.
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

async function options(page: Page) {
  return page.$$eval('#model-select option', (items) =>
    items.map((item) => ({
      text: item.textContent!,
      value: (item as HTMLOptionElement).value,
      selected: (item as HTMLOptionElement).selected,
      disabled: (item as HTMLOptionElement).disabled,
    })),
  );
}

test.skipIf(!realModel)(
  'without WebGPU the picker suggests an instruction-tuned GGUF model on the CPU and offers the base model with its limits in sight; the base model loads from this origin with progress, and it answers',
  async () => {
    const { page, problems, close } = await visit(browser, url, { size: 'desktop', scheme: 'light' });
    await page.click('#model-button');
    const listed = await options(page);
    const suggested = listed.find((option) => option.value === 'gguf:qwen2.5-coder-0.5b-instruct-q4_k_m')!;
    expect(suggested.text).toMatch(
      /^Qwen2\.5-Coder 0\.5B Instruct · 469 MB · about \d+ tokens\/s on one CPU thread · best fit$/,
    );
    expect(suggested).toMatchObject({ selected: true, disabled: false });
    expect(listed.find((option) => option.value === 'gguf:qwen2.5-coder-1.5b-instruct-q4_k_m')!.text).toMatch(
      /^Qwen2\.5-Coder 1\.5B Instruct · 1\.0 GB · about \d+ tokens\/s on one CPU thread · better, bigger$/,
    );
    const gguf = listed.find((option) => option.value === 'gguf:gemma-3-270m-q4_k_m')!;
    expect(gguf.text).toMatch(
      /^Gemma 3 270M \(Q4_K_M\) · 241 MB · about \d+ tokens\/s on one CPU thread · base model$/,
    );
    expect(gguf).toMatchObject({ selected: false, disabled: false });
    // The WebGPU models are listed, and cannot be chosen here.
    const webllm = listed.filter((option) => option.value.startsWith('webllm:'));
    expect(webllm.length).toBeGreaterThan(0);
    expect(webllm.every((option) => option.disabled && option.text.includes('needs WebGPU'))).toBe(true);
    expect(await page.textContent('#gpu-panel')).toContain('a GGUF model runs on the CPU instead (llama.cpp)');
    expect(await page.isEnabled('#load-model')).toBe(true);
    // The base model's limits show under the list once it is chosen: in sight on a phone too, not in a hover title.
    await page.selectOption('#model-select', 'gguf:gemma-3-270m-q4_k_m');
    expect(await page.textContent('#model-hint')).toContain(
      'A base model, not trained to chat: it answers each request with one tool call and never replies in words.',
    );
    expect(await page.$$eval('#model-select option[title]', (items) => items.length)).toBe(0);
    await shot(page, 'demo-gguf-picker-desktop-light');

    // Load: progress in bytes, then the model's own label.
    await page.click('#load-model');
    await page.waitForFunction(
      () => /\d+ \/ 241 MB/.test(document.querySelector('#progress-text')?.textContent ?? ''),
      null,
      {
        timeout: 60_000,
      },
    );
    await page.waitForFunction(
      () =>
        document.querySelector('#progress')!.hasAttribute('hidden') &&
        /llama\.cpp/.test(document.querySelector('#model-label')?.textContent ?? ''),
      null,
      { timeout: 120_000 },
    );
    await ready(page);
    // The demo is cross-origin isolated: llama.cpp gets the engine's default, half the cores and at least two.
    const cores = await page.evaluate(() => navigator.hardwareConcurrency);
    const threads = Math.min(cores, Math.max(2, Math.floor(cores / 2)));
    const label = `Gemma 3 270M (Q4_K_M) (llama.cpp, ${threads === 1 ? 'one CPU thread' : `${threads} CPU threads`})`;
    expect(await page.textContent('#model-label')).toBe(label);
    expect(await page.$eval('#gpu-panel', (panel) => panel.firstChild!.textContent)).toBe(
      `${label} is running on this device.`,
    );
    // What the engine says of the model shows beside it: a base model, without a chat template.
    expect(await page.textContent('#gpu-panel p')).toContain('has no chat template');
    expect(await page.isVisible('#mode-banner')).toBe(false);
    await shot(page, 'demo-gguf-loaded-desktop-light');

    // A base model answers a request with one call of a page tool and no reply: one card, then the run's end said as such.
    await page.keyboard.press('Escape');
    await watchChat(page);
    await say(page, 'Remember to buy milk');
    await page.waitForFunction(
      () =>
        !document.querySelector('inpage-agent-chat')!.shadowRoot!.querySelector<HTMLElement>('#send')!.hidden &&
        document.querySelector('inpage-agent-chat')!.shadowRoot!.querySelector<HTMLElement>('#stop')!.hidden,
      null,
      { timeout: 300_000 },
    );
    const cards = page.locator('#log li.card');
    expect(await cards.count()).toBe(1);
    // The work showed as it went: the request being read, then the card while the model wrote the call, before it ran.
    const seen = await chatSeen(page);
    const tool = await cards.first().getAttribute('data-tool');
    const reading = seen.findIndex((line) => line.includes('working: Reading your request'));
    const writing = seen.findIndex((line) => line.includes(`${tool} writing`));
    const ran = seen.findIndex((line) => line.includes(`${tool} done`) || line.includes(`${tool} failed`));
    expect(reading, seen.join('\n')).toBeGreaterThan(-1);
    expect(writing, seen.join('\n')).toBeGreaterThan(reading);
    expect(ran).toBeGreaterThan(writing);
    // A call the page could read and run: the card did not fail.
    expect(await cards.first().getAttribute('data-state')).not.toBe('failed');
    console.info(`Gemma 3 270M in the demo, "Remember to buy milk": ${await cards.first().getAttribute('data-tool')}`);
    expect(await page.locator('#log li.msg.status-line').last().textContent()).toBe(
      'Done. This model runs one tool per request and does not reply.',
    );
    expect(await page.locator('#log li.msg.error').count()).toBe(0);
    await shot(page, 'demo-gguf-answered-desktop-light');

    // Downloaded once: after a reload the picker marks it.
    await page.reload();
    await ready(page);
    await page.click('#model-button');
    expect((await options(page)).find((option) => option.value === 'gguf:gemma-3-270m-q4_k_m')!.text).toContain(
      '· downloaded ·',
    );
    // Everything came from the demo's own origin, and nothing failed.
    expect(problems).toEqual([]);
    await close();
  },
  600_000,
);
