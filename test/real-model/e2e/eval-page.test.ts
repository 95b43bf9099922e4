// eval.html, the BFCL self-test page, with the real model, Gemma 3 270M, served from the test's own origin
// (/models/) and run by llama.cpp in the page's worker on 10 cases, judged live and exported as JSON (the page's
// mechanics, without a model: test/e2e/eval-page.test.ts).
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { ViteDevServer } from 'vite';
import type { Browser } from 'playwright-core';
import { hasSharedData } from '../../shared-data';
import { launchChromium, serveDemo, shot, sizes } from '../../e2e/demo-visitor';
import { hasRealModel } from '../real-model';

let server: ViteDevServer;
let browser: Browser;
let url: string;
const there = hasSharedData('bfcl');

/**
 * Ten real cases take minutes on one CPU thread (a BFCL prompt is some 460 tokens to prefill), too long for
 * `npm test`, whose real-model eval sample is test/real-model/eval/gguf-run.browser.test.ts: this one runs with
 * `npm run eval:page` (INPAGE_EVAL_PAGE=1) alone; vitest.config.ts leaves it out of every other run, so that
 * `npm test` never counts it as a skipped test.
 */
const evalPageRun = process.env.INPAGE_EVAL_PAGE === '1';

beforeAll(async () => {
  if (!there || !hasRealModel() || !evalPageRun) return;
  ({ server, url } = await serveDemo());
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

test.skipIf(!there || !hasRealModel() || !evalPageRun)(
  'Gemma 3 270M from this origin: 10 cases judged live, tokens per second, exported as JSON',
  async () => {
    const context = await browser.newContext({ viewport: sizes.desktop, colorScheme: 'light', acceptDownloads: true });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (message) => message.type() === 'error' && problems.push(`console: ${message.text()}`));
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on(
      'response',
      (response) => response.status() >= 400 && problems.push(`${response.status()} ${response.url()}`),
    );
    try {
      await page.goto(`${url}eval.html`);
      await page.selectOption('#model-kind', 'gguf');
      expect(await page.textContent('#model-note')).toContain('llama.cpp');
      await page.fill('#gguf-url', `${url}models/gemma-3-270m-q4_k_m.gguf`);
      for (const box of await page.locator('input[name="arm"]').all())
        await box.setChecked((await box.getAttribute('value')) === 'ours');
      for (const box of await page.locator('input[name="category"]').all())
        await box.setChecked((await box.getAttribute('value')) === 'simple_python');
      await page.fill('#limit', '10');
      await page.fill('#max-tokens', '64');
      await page.click('#start');

      // Live: after the first judged case, the verdict, the calls, the model's speed and a row of the table.
      // Generous: llama.cpp on one shared CPU thread; a quiet 2-core machine answers a case in seconds.
      await page.waitForFunction(() => document.querySelectorAll('#log li').length >= 1, null, { timeout: 600_000 });
      expect(await page.getAttribute('#progress', 'data-state')).toBe('running');
      expect(await page.textContent('#last-verdict')).toMatch(/^(correct|wrong|invalid)/);
      expect(Number(await page.textContent('#tokens-per-second'))).toBeGreaterThan(0);
      expect(await page.textContent('#run-label')).toContain('gemma-3-270m-q4_k_m.gguf (GGUF)');
      expect(await page.locator('#summary tbody tr').count()).toBeGreaterThan(0);
      await shot(page, 'eval-page-gguf-live');

      await page.waitForSelector('#progress[data-state="done"]', { timeout: 2_400_000 });
      expect(await page.textContent('#progress-text')).toBe('Done: 10 of 10 judged.');
      expect(await page.locator('#log li').count()).toBe(10);
      const rows = await page.$$eval('#summary tbody tr', (trs) =>
        trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)),
      );
      expect(rows.map((cells) => `${cells[0]} ${cells[1]} ${cells[2]}`)).toEqual([
        'simple_python ours 10',
        'all categories ours 10',
      ]);
      await page.evaluate(() => scrollTo(0, 0));
      await shot(page, 'eval-page-gguf');

      const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export')]);
      const report = JSON.parse(await readFile((await download.path())!, 'utf8'));
      expect(report.model).toBe('gemma-3-270m-q4_k_m.gguf (GGUF)');
      expect(report.maxTokens).toBe(64);
      expect(report.results).toHaveLength(10);
      for (const result of report.results) {
        expect(result.verdict, result.why).not.toBe('error');
        expect(result.promptTokens).toBeGreaterThan(0);
        // Our grammar: whatever the model called is readable and valid under the function's schema.
        expect(result.valid).toBe(result.calls.length);
      }
      // The model loaded once, for the first case.
      expect(report.results.filter((result: { startSeconds: number }) => result.startSeconds > 0)).toHaveLength(1);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  },
  3_000_000,
);
