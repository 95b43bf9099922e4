import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { chromiumArgs as quiet, findChromium } from '../../scripts/chromium.mjs';
import { serveStatic, type StaticServer } from './built-files';
import { docBlock, inApp, packedTarball, repoRoot } from './packaging-apps';

/**
 * The two examples of docs/ai-sdk.md in a Vite + React app, as a web developer
 * makes it: this repository packed, the tarball installed into a fresh app
 * first alone (the AI SDK is an optional peer), then with ai, @ai-sdk/react,
 * React and Vite's React plugin; both blocks pasted in unchanged, built with
 * `vite build`, served statically and run in Chromium.
 */
const run = promisify(execFile);
const DOC = 'docs/ai-sdk.md';
const SECTION = 'Use it with the Vercel AI SDK';
/** What the docs' install line and a React app made with Vite bring. */
const AI_SDK_DEPENDENCIES = [
  'ai@6',
  '@ai-sdk/react@3',
  'react@^19.2.1',
  'react-dom@^19.2.1',
  '@vitejs/plugin-react@^6',
];

let browser: Browser;
let app: string;
let server: StaticServer;
/** The app's own Vite dev server, as `npm run dev` starts it. */
let dev: { url: string; close(): Promise<void> };
let withoutAiSdk: { aiInstalled: boolean; installLog: string };

/** The tiny random-weight GGUFs (scripts/tiny-gguf.mjs), found where scripts/model-files.mjs serves them from. */
const modelFiles = join(repoRoot, 'scripts/model-files.mjs');

/**
 * streamText over the tiny GGUF through llama.cpp: its weights are random, so it calls the tool because the grammar
 * makes it (the AI SDK's prepareStep asks for the tool in two steps), and writes whatever it writes after.
 */
const GGUF_PAGE = `import { stepCountIs, streamText, tool } from 'ai';
import { z } from 'zod';
import { inpageModel } from 'inpage-agent/ai-sdk';

const model = inpageModel({
  engine: 'wllama',
  url: '/models/tiny.gguf',
  toolFormat: 'gemma-tool-code',
  contextWindow: 2048,
  temperature: 1,
  seed: 7,
  completion: { n_predict: 48 },
});
const cities = [];
const result = streamText({
  model,
  prompt: 'What is the weather in Lyon and in Paris?',
  tools: {
    weather: tool({
      description: 'The weather in a city.',
      inputSchema: z.object({ city: z.string() }),
      execute: async ({ city }) => {
        cities.push(city);
        return { sky: 'sunny', celsius: 24 };
      },
    }),
  },
  prepareStep: ({ stepNumber }) => ({ toolChoice: stepNumber < 2 ? { type: 'tool', toolName: 'weather' } : 'none' }),
  stopWhen: stepCountIs(3),
});
let pieces = 0;
for await (const text of result.textStream) if (text) pieces += 1;
const steps = await result.steps;
window.__result = {
  cities,
  pieces,
  steps: steps.map((step) => ({ finishReason: step.finishReason, calls: step.toolCalls.length, inputTokens: step.usage.inputTokens, cacheRead: step.usage.inputTokenDetails?.cacheReadTokens })),
};
`;

async function npmInstall(dir: string, packages: string[]): Promise<string> {
  const { stdout, stderr } = await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', ...packages], {
    cwd: dir,
    maxBuffer: 16 * 1024 * 1024,
  });
  return `${stdout}\n${stderr}`;
}

const html = (body: string, script: string) =>
  `<!doctype html>\n<html lang="en">\n  <head><meta charset="utf-8" /><title>AI SDK app</title></head>\n  <body>\n    ${body}\n    <script type="module" src="${script}"></script>\n  </body>\n</html>\n`;

beforeAll(async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'inpage-ai-sdk-app-'));
  process.once('exit', () => rmSync(tmp, { recursive: true, force: true }));
  const tarball = await packedTarball(tmp);
  app = join(tmp, 'app');
  mkdirSync(join(app, 'src'), { recursive: true });
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'ai-sdk-app', private: true, type: 'module' }));
  // First the package alone, as an app that does not use the AI SDK installs it.
  const installLog = await npmInstall(app, [tarball, 'vite@^8.3.8', 'zod@^4.6.7']);
  withoutAiSdk = { aiInstalled: existsSync(join(app, 'node_modules/ai')), installLog };
  await npmInstall(app, AI_SDK_DEPENDENCIES);

  writeFileSync(
    join(app, 'vite.config.js'),
    [
      "import react from '@vitejs/plugin-react';",
      '',
      'export default {',
      '  plugins: [react()],',
      // The line for Vite of docs/install.md (Bundlers): web-llm stays a lazy chunk of the worker.
      "  worker: { format: 'es' },",
      "  build: { rollupOptions: { input: { stream: 'index.html', chat: 'chat/index.html', gguf: 'gguf/index.html' } } },",
      '};',
    ].join('\n'),
  );
  writeFileSync(join(app, 'index.html'), html('<ul id="lookups"></ul>\n    <p id="answer"></p>', '/src/stream.js'));
  writeFileSync(join(app, 'src/stream.js'), docBlock(DOC, SECTION, 'js', 'streamText'));
  mkdirSync(join(app, 'chat'));
  writeFileSync(join(app, 'chat/index.html'), html('<ul id="todos"></ul>\n    <div id="root"></div>', '/src/chat.jsx'));
  writeFileSync(join(app, 'src/chat.jsx'), docBlock(DOC, SECTION, 'jsx', 'useChat'));
  const { tinyModelPath } = await import(pathToFileURL(modelFiles).href);
  mkdirSync(join(app, 'public/models'), { recursive: true });
  copyFileSync(tinyModelPath('gemma2', 'plain'), join(app, 'public/models/tiny.gguf'));
  mkdirSync(join(app, 'gguf'));
  writeFileSync(join(app, 'gguf/index.html'), html('', '/src/gguf.js'));
  writeFileSync(join(app, 'src/gguf.js'), GGUF_PAGE);
  await inApp(app, 'node', ['node_modules/vite/bin/vite.js', 'build', '--outDir', 'out', '--logLevel', 'warn']);
  server = await serveStatic({ '/': join(app, 'out') });
  const vite = await import(pathToFileURL(join(app, 'node_modules/vite/dist/node/index.js')).href);
  const devServer = await vite.createServer({ root: app, logLevel: 'error', server: { host: '127.0.0.1', port: 0 } });
  await devServer.listen();
  dev = { url: devServer.resolvedUrls.local[0].replace(/\/$/, ''), close: () => devServer.close() };
  browser = await chromium.launch({ executablePath: findChromium(), args: quiet });
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await dev?.close();
});

/** A page of the built app, with every uncaught error and failed request it meets, and every text its paragraphs showed. */
async function open(path: string, origin = server.url) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.addInitScript(() => {
    const shown = new Set<string>();
    (window as unknown as { shownTexts: Set<string> }).shownTexts = shown;
    new MutationObserver(() => {
      for (const paragraph of document.querySelectorAll('main p')) shown.add(paragraph.textContent ?? '');
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`${error.name}: ${error.message}`));
  page.on('requestfailed', (request) => {
    // Chromium reports every HEAD fetch as aborted once its headers are in (there is no body to read); its status
    // is checked below like any response's. (The wllama engine asks for llama.cpp's wasm with a HEAD first.)
    if (request.method() === 'HEAD' && request.failure()?.errorText === 'net::ERR_ABORTED') return;
    problems.push(`${request.url()}: ${request.failure()?.errorText}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400 && !response.url().endsWith('/favicon.ico'))
      problems.push(`${response.url()}: ${response.status()}`);
  });
  await page.goto(`${origin}${path}`);
  return { page, problems, close: () => context.close() };
}

const tool = (page: Page, name: string) => page.locator('p.tool', { hasText: `${name}:` });

describe('the AI SDK as an optional peer', () => {
  test('the package installs without the AI SDK: npm adds none of it, and says nothing of missing peers', () => {
    expect(withoutAiSdk.aiInstalled).toBe(false);
    expect(withoutAiSdk.installLog).not.toMatch(/ERESOLVE|peer dep/i);
  });

  test("the app's entry file holds none of the AI SDK in inpage-agent's own files, and ai-sdk.js shares inpage-agent's runtime", () => {
    const dist = join(app, 'node_modules/inpage-agent/dist');
    const aiSdk = readFileSync(join(dist, 'ai-sdk.js'), 'utf8');
    expect(aiSdk).toContain('from "inpage-agent"');
    expect(readFileSync(join(dist, 'index.js'), 'utf8')).not.toMatch(/readUIMessageStream|from "ai"/);
  });
});

describe('the AI SDK examples of docs/ai-sdk.md, unchanged, in a Vite + React app', () => {
  test('streamText with inpageModel calls the AI SDK tool over 3 steps: the tool runs, and the answer streams', async () => {
    const { page, problems, close } = await open('/');
    try {
      await expect
        .poll(() => page.locator('#answer').textContent(), { timeout: 30_000 })
        .toBe('Lyon is sunny (24 °C) and Paris is cloudy (18 °C).');
      expect(await page.locator('#lookups li').allTextContents()).toEqual(['Lyon', 'Paris']);
      // Streamed: each piece of textStream was appended as it came, one text node each.
      expect(await page.locator('#answer').evaluate((answer) => answer.childNodes.length)).toBeGreaterThan(3);
      await page.screenshot({ path: 'test-results/ai-sdk-stream-text.png' });
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  test('streamText with inpageModel over the tiny GGUF (wllama, llama.cpp) calls the AI SDK tool in 2 grammar-held steps, then streams a third', async () => {
    const { page, problems, close } = await open('/gguf/');
    try {
      await page.waitForFunction(() => (window as unknown as { __result?: unknown }).__result, null, {
        timeout: 90_000,
      });
      const result = await page.evaluate(
        () =>
          (
            window as unknown as {
              __result: {
                cities: unknown[];
                pieces: number;
                steps: { finishReason: string; calls: number; inputTokens: number; cacheRead?: number }[];
              };
            }
          ).__result,
      );
      expect(result.steps.map((step) => [step.finishReason, step.calls])).toEqual([
        ['tool-calls', 1],
        ['tool-calls', 1],
        [expect.stringMatching(/^(stop|length)$/), 0],
      ]);
      expect(result.cities).toHaveLength(2);
      for (const city of result.cities) expect(typeof city).toBe('string');
      expect(result.pieces).toBeGreaterThan(0);
      for (const step of result.steps) expect(step.inputTokens).toBeGreaterThan(0);
      // llama.cpp kept each step's prompt: the AI SDK's usage says how much of the next one came from the cache.
      const [first, ...later] = result.steps;
      expect(first.cacheRead).toBe(0);
      for (const [index, step] of later.entries()) {
        expect(step.cacheRead).toBeGreaterThanOrEqual(result.steps[index].inputTokens);
        expect(step.cacheRead).toBeLessThan(step.inputTokens);
      }
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  }, 120_000);

  test('both run from the Vite dev server too (the package pre-bundled by Vite, its worker found)', async () => {
    const stream = await open('/', dev.url);
    try {
      await expect
        .poll(() => stream.page.locator('#answer').textContent(), { timeout: 30_000 })
        .toBe('Lyon is sunny (24 °C) and Paris is cloudy (18 °C).');
      expect(stream.problems).toEqual([]);
    } finally {
      await stream.close();
    }
    const chat = await open('/chat/', dev.url);
    try {
      await chat.page.getByRole('textbox', { name: 'Message' }).fill('Remember to buy milk.');
      await chat.page.getByRole('button', { name: 'Send' }).click();
      await chat.page.getByText('Milk is on your list.').waitFor();
      expect(await tool(chat.page, 'add_todo').textContent()).toBe('add_todo: output-available');
      expect(chat.problems).toEqual([]);
    } finally {
      await chat.close();
    }
  });

  test('useChat with inpageChatTransport: streamed text and tool parts, Deny refuses a destructive tool, Approve runs it, and a reload shows the conversation again', async () => {
    const { page, problems, close } = await open('/chat/');
    try {
      const input = page.getByRole('textbox', { name: 'Message' });
      const send = async (text: string) => {
        await input.fill(text);
        await page.getByRole('button', { name: 'Send' }).click();
      };

      await send('Remember to buy milk.');
      await expect.poll(() => tool(page, 'add_todo').textContent()).toBe('add_todo: output-available');
      await page.getByText('Milk is on your list.').waitFor();
      expect(await page.locator('#todos li').allTextContents()).toEqual(['milk']);
      // The answer was shown as it streamed: the page showed parts of it before the whole.
      const shown = await page.evaluate(() => [...(window as unknown as { shownTexts: Set<string> }).shownTexts]);
      expect(shown.filter((text) => text && 'Milk is on your list.'.startsWith(text) && text.length < 21)).not.toEqual(
        [],
      );

      await send('Clear my list.');
      await tool(page, 'clear_todos').getByRole('button', { name: 'Deny' }).waitFor();
      await page.screenshot({ path: 'test-results/ai-sdk-chat-approval.png' });
      await tool(page, 'clear_todos').getByRole('button', { name: 'Deny' }).click();
      await page.getByText('I left your list as it is.').waitFor();
      expect(await tool(page, 'clear_todos').first().textContent()).toBe('clear_todos: output-denied');
      expect(await page.locator('#todos li').allTextContents()).toEqual(['milk']);

      await send('Please clear it.');
      const second = tool(page, 'clear_todos').nth(1);
      await second.getByRole('button', { name: 'Approve' }).click();
      await page.getByText('Your list is empty now.').waitFor();
      expect(await second.textContent()).toBe('clear_todos: output-available');
      expect(await page.locator('#todos li').count()).toBe(0);
      const before = await page.locator('main > div').allTextContents();
      await page.screenshot({ path: 'test-results/ai-sdk-chat-done.png' });

      await page.reload();
      await page.getByText('Your list is empty now.').waitFor();
      expect(await page.locator('main > div').allTextContents()).toEqual(before);
      expect(before).toEqual([
        'Remember to buy milk.',
        'add_todo: output-availableMilk is on your list.',
        'Clear my list.',
        'clear_todos: output-deniedI left your list as it is.',
        'Please clear it.',
        'clear_todos: output-availableYour list is empty now.',
      ]);
      await page.screenshot({ path: 'test-results/ai-sdk-chat-reloaded.png' });
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});
