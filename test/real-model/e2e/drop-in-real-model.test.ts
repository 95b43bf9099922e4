// The README's "Drop it into any page", on the real Qwen2.5-Coder-0.5B-Instruct: its script-tag block (one
// <script>, one <inpage-agent-chat>, one marked form) pasted into a fresh page, and its ESM import in a fresh Vite
// app and a webpack app, with the package installed from its tarball. A visitor types a booking in the chat; the
// model's call waits in its card; once the visitor presses Allow, the form is filled and posted, and the server
// receives the booking. The model runs on llama.cpp on this CPU, so each page takes minutes; the model file is
// served at /models/ from ~/.cache/inpage-agent/ (scripts/fetch-model.sh). A persistent profile per page, since
// the 491 MB file does not fit an in-memory context's Cache Storage.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import {
  createReadStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
  cpSync,
} from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { chromiumArgs, findChromium } from '../../../scripts/chromium.mjs';
import { INSTRUCT_MODEL_FILE, realModelPath } from '../../../scripts/model-files.mjs';
import { docBlock, inApp, packagedApp } from '../../e2e/packaging-apps';

const SECTION = 'Drop it into any page: a chat and your forms';
const modelFile = realModelPath(INSTRUCT_MODEL_FILE);
const REQUEST = 'Book a table for 2 people under the name Ana.';

let app: string;
const closers: (() => Promise<unknown> | unknown)[] = [];

beforeAll(async () => {
  if (!modelFile) return;
  app = (await packagedApp()).dir;
}, 600_000);

afterAll(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** The README's HTML block, and that block without its <script> line (a bundled app loads its own). */
const htmlBlock = () => docBlock('README.md', SECTION, 'html', '<inpage-agent-chat');
const withoutScript = (html: string) =>
  html
    .split('\n')
    .filter((line) => !line.startsWith('<script'))
    .join('\n');

function pageWith(body: string, script = ''): string {
  return `<!doctype html>\n<html lang="en">\n  <head><meta charset="utf-8" /><title>a restaurant</title><link rel="icon" href="data:," /></head>\n  <body>\n${body}\n${script}\n  </body>\n</html>\n`;
}

/**
 * A plain host for `root`, cross-origin isolated (so llama.cpp has its threads), with the real model at /models/,
 * and /book, which records the booking it is posted and answers with a page of its own.
 */
async function restaurantHost(root: string) {
  const bookings: Record<string, string>[] = [];
  const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm' };
  const isolation = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };
  const server: Server = createServer((request, response) => {
    const path = decodeURIComponent((request.url ?? '/').split('?')[0]!);
    if (path === '/book' && request.method === 'POST') {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        bookings.push(Object.fromEntries(new URLSearchParams(body)));
        response.writeHead(200, { 'Content-Type': 'text/html', ...isolation }).end('<!doctype html><p>Booked.</p>');
      });
      return;
    }
    if (path === `/models/${INSTRUCT_MODEL_FILE}`) {
      response.writeHead(200, {
        'Content-Type': 'application/octet-stream',
        'Content-Length': String(statSync(modelFile!).size),
        ...isolation,
      });
      createReadStream(modelFile!).pipe(response);
      return;
    }
    const file = normalize(join(root, path.endsWith('/') ? `${path}index.html` : path));
    if (!file.startsWith(root) || !existsSync(file) || statSync(file).isDirectory())
      return void response.writeHead(404, isolation).end('not found');
    response
      .writeHead(200, { 'Content-Type': types[extname(file)] ?? 'application/octet-stream', ...isolation })
      .end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  closers.push(() => new Promise((resolve) => server.close(resolve)));
  return { url: `http://127.0.0.1:${port}/`, bookings };
}

/** A browser with a profile on disk, as a visitor's window is. */
async function visitorWindow(): Promise<BrowserContext> {
  const profile = mkdtempSync(join(tmpdir(), 'inpage-drop-in-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: findChromium(),
    args: chromiumArgs,
    viewport: { width: 1100, height: 800 },
  });
  closers.push(async () => {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  });
  return context;
}

/** The chat's state, read in its shadow root. */
const chatState = (page: Page) =>
  page.evaluate(() => {
    const chat = document.querySelector('inpage-agent-chat') as HTMLElement & { agent?: { status: string } };
    const root = chat?.shadowRoot;
    return {
      status: chat?.agent?.status,
      cards: [...(root?.querySelectorAll<HTMLElement>('li.card') ?? [])].map((card) => ({
        tool: card.dataset.tool,
        state: card.dataset.state,
        args: card.querySelector('.card-args')?.textContent ?? '',
      })),
      replies: [...(root?.querySelectorAll('li.msg.model .text') ?? [])].map((text) => text.textContent),
      errors: [...(root?.querySelectorAll('li.msg.error') ?? [])].map((item) => item.textContent),
    };
  });

/** A visitor's booking, asked in the chat, allowed in its card; resolves with what the server received. */
async function bookThroughTheChat(url: string, bookings: Record<string, string>[], name: string): Promise<void> {
  const context = await visitorWindow();
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(url);
  // The chat made its agent from its attributes: the model loads (and reads its instructions and tools ahead).
  await page.waitForFunction(
    () =>
      (document.querySelector('inpage-agent-chat') as HTMLElement & { agent?: { status: string } })?.agent?.status ===
      'ready',
    null,
    { timeout: 300_000, polling: 1000 },
  );
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
  await page.fill('#prompt', REQUEST);
  await page.press('#prompt', 'Enter');
  const started = Date.now();
  await page.waitForFunction(
    () =>
      document.querySelector('inpage-agent-chat')!.shadowRoot!.querySelector('li.card[data-state="approval"]') !==
        null || !document.querySelector('inpage-agent-chat')!.shadowRoot!.querySelector<HTMLElement>('#send')!.hidden,
    null,
    { timeout: 900_000, polling: 1000 },
  );
  const asked = await chatState(page);
  console.info(`${name}: ${((Date.now() - started) / 1000).toFixed(0)} s to the card; ${JSON.stringify(asked)}`);
  await page.screenshot({ path: `test-results/drop-in-${name}-approval.png` });
  expect(asked.cards.map((card) => `${card.tool} ${card.state}`)).toEqual(['book_table approval']);
  // Nothing is sent before the visitor allows it.
  expect(bookings).toEqual([]);
  const navigated = page.waitForURL('**/book', { timeout: 120_000 });
  await page.locator('li.card[data-state="approval"] button[data-choice="allow"]').click();
  await navigated;
  expect(await page.textContent('body')).toContain('Booked.');
  expect(bookings).toHaveLength(1);
  expect(bookings[0]!.name).toMatch(/^ana$/i);
  expect(bookings[0]!.guests).toBe('2');
  expect(problems).toEqual([]);
}

describe.skipIf(!modelFile)("the README's drop-in blocks on the real Qwen2.5-Coder-0.5B-Instruct", () => {
  test('the script-tag block in a fresh page: the visitor’s request fills and posts the form once they allow it', async () => {
    const root = join(app, 'drop-in-script-tag');
    mkdirSync(join(root, 'vendor'), { recursive: true });
    const dist = join(app, 'node_modules/inpage-agent/dist');
    for (const file of ['inpage-agent.iife.js', 'inpage-agent.worker.js', 'chunks'])
      cpSync(join(dist, file), join(root, 'vendor', file), { recursive: true });
    writeFileSync(join(root, 'index.html'), pageWith(htmlBlock()));
    const host = await restaurantHost(root);
    await bookThroughTheChat(host.url, host.bookings, 'script-tag');
  }, 1_500_000);

  test('ESM in a fresh Vite app (vite build): the same', async () => {
    const dir = join(app, 'drop-in-vite');
    mkdirSync(join(dir, 'src'), { recursive: true });
    writeFileSync(join(dir, 'src/main.js'), docBlock('README.md', SECTION, 'js', "import 'inpage-agent/chat'"));
    writeFileSync(
      join(dir, 'index.html'),
      pageWith(withoutScript(htmlBlock()), '<script type="module" src="/src/main.js"></script>'),
    );
    await inApp(app, 'node', [
      'node_modules/vite/bin/vite.js',
      'build',
      dir,
      '--outDir',
      join(dir, 'out'),
      '--logLevel',
      'warn',
    ]);
    const host = await restaurantHost(join(dir, 'out'));
    await bookThroughTheChat(host.url, host.bookings, 'vite');
  }, 1_500_000);

  test('ESM in a webpack app (production build): the same', async () => {
    const dir = join(app, 'drop-in-webpack');
    mkdirSync(join(dir, 'src'), { recursive: true });
    writeFileSync(join(dir, 'src/main.js'), docBlock('README.md', SECTION, 'js', "import 'inpage-agent/chat'"));
    writeFileSync(
      join(app, 'webpack.drop-in.config.js'),
      [
        'export default {',
        "  mode: 'production',",
        `  entry: ${JSON.stringify(join(dir, 'src/main.js'))},`,
        `  output: { path: ${JSON.stringify(join(dir, 'out'))}, clean: true },`,
        '  optimization: { minimize: false },',
        '};',
      ].join('\n'),
    );
    await inApp(app, 'node', ['node_modules/webpack-cli/bin/cli.js', '--config', 'webpack.drop-in.config.js']);
    writeFileSync(join(dir, 'out/index.html'), pageWith(withoutScript(htmlBlock()), '<script src="main.js"></script>'));
    const host = await restaurantHost(join(dir, 'out'));
    await bookThroughTheChat(host.url, host.bookings, 'webpack');
  }, 1_500_000);
});
