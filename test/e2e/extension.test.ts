import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { chromium, type BrowserContext, type Page, type Worker } from 'playwright-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
// @ts-expect-error: a plain .mjs module without types
import { buildExtension } from '../../scripts/build-extension.mjs';
import { serveStatic, type StaticServer } from './built-files';
import { chromiumArgs as quiet, findChromium } from '../../scripts/chromium.mjs';

let context: BrowserContext;
let server: StaticServer;
let extensionId: string;
let background: Worker;
let foreignBackground: Worker;

beforeAll(async () => {
  const dir: string = await buildExtension(mkdtempSync(join(tmpdir(), 'inpage-extension-')), { quiet: true });
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  server = await serveStatic({ '/pages/': resolve(import.meta.dirname, 'pages/extension') });
  const foreign = resolve(import.meta.dirname, 'pages/foreign-extension');
  context = await chromium.launchPersistentContext('', {
    executablePath: findChromium(),
    headless: true,
    args: [...quiet, `--disable-extensions-except=${dir},${foreign}`, `--load-extension=${dir},${foreign}`],
  });
  while (context.serviceWorkers().length < 2) await context.waitForEvent('serviceworker');
  const names = await Promise.all(
    context
      .serviceWorkers()
      .map((worker) =>
        worker.evaluate(
          () =>
            (
              globalThis as unknown as { chrome: { runtime: { getManifest(): { name: string } } } }
            ).chrome.runtime.getManifest().name,
        ),
      ),
  );
  background = context.serviceWorkers()[names.findIndex((name) => !name.includes('foreign'))]!;
  foreignBackground = context.serviceWorkers()[names.findIndex((name) => name.includes('foreign'))]!;
  extensionId = new URL(background.url()).host;
});

afterAll(async () => {
  await context?.close();
  await server?.close();
});

/** Asks the extension's agent from a tab (the example's content script listens for this event) and waits for the reply. */
async function ask(page: Page, text: string) {
  await page.evaluate((question) => {
    delete document.documentElement.dataset.agentReply;
    window.dispatchEvent(new CustomEvent('inpage-agent-example:ask', { detail: question }));
  }, text);
  await page.waitForFunction(() => document.documentElement.dataset.agentReply, null, { timeout: 30_000 });
  return JSON.parse((await page.getAttribute('html', 'data-agent-reply'))!) as {
    answer?: string;
    results?: unknown[];
    refused: string[];
    error?: string;
  };
}

async function toolsStatus(page: Page, status: string) {
  await page.waitForFunction((wanted) => document.documentElement.dataset.agentTools === wanted, status, {
    timeout: 15_000,
  });
}

describe('the example extension, loaded into Chromium', () => {
  test("the extension's agent calls a tool that the content script defines on the visited page", async () => {
    const page = await context.newPage();
    await page.goto(`${server.url}/pages/visited.html`);
    await page.evaluate(() =>
      window.dispatchEvent(new CustomEvent('inpage-agent-example:ask', { detail: 'What is this page about?' })),
    );
    await page.waitForFunction(() => document.documentElement.dataset.agentReply, null, { timeout: 30_000 });
    const reply = JSON.parse((await page.getAttribute('html', 'data-agent-reply'))!);
    expect(reply.results).toEqual(['Quarterly report']);
    // Without weights an engine module stands in, and says it is no model.
    expect(reply.answer).toBe(
      "This page's heading is “Quarterly report”. (Example engine, no model: I can only read headings.)",
    );
    expect(reply.model).toBe('Example engine (no model)');
    // The tool ran in the page: it marked the heading.
    expect(await page.getAttribute('h1', 'data-read-by-agent')).toBe('true');
    await page.screenshot({ path: 'test-results/extension-visited-page.png' });
    await page.close();
  });

  test('a web page that connects to the extension to offer tools is refused', async () => {
    const page = await context.newPage();
    await page.goto(`${server.url}/pages/visited.html`);
    const outcome = await page.evaluate(
      (id) =>
        new Promise<string>((resolve) => {
          const runtime = (
            globalThis as unknown as {
              chrome?: {
                runtime?: {
                  connect(
                    id: string,
                    info: { name: string },
                  ): { onDisconnect: { addListener(f: () => void): void }; postMessage(m: unknown): void };
                };
              };
            }
          ).chrome?.runtime;
          if (!runtime) return resolve('no chrome.runtime on the page');
          const port = runtime.connect(id, { name: 'inpage-agent/tools' });
          port.onDisconnect.addListener(() => resolve('disconnected'));
          setTimeout(() => resolve('still connected'), 5000);
        }),
      extensionId,
    );
    expect(outcome).toBe('disconnected');
    // The refusal is on record in the host, and no tool came of it: ask again and look.
    await page.evaluate(() => window.dispatchEvent(new CustomEvent('inpage-agent-example:ask', { detail: 'again' })));
    await page.waitForFunction(() => document.documentElement.dataset.agentReply, null, { timeout: 30_000 });
    const reply = JSON.parse((await page.getAttribute('html', 'data-agent-reply'))!);
    expect(reply.refused.some((message: string) => /outside this extension/.test(message))).toBe(true);
    await page.close();
  });

  test('two tabs offer the same tool: the newest tab answers, and once it closes the first one does again', async () => {
    const first = await context.newPage();
    await first.goto(`${server.url}/pages/visited.html`);
    await toolsStatus(first, 'connected');
    const second = await context.newPage();
    await second.goto(`${server.url}/pages/other.html`);
    await toolsStatus(second, 'connected');
    expect((await ask(second, 'What is the heading?')).results).toEqual(['Release notes']);
    expect(await second.getAttribute('h1', 'data-read-by-agent')).toBe('true');
    expect(await first.getAttribute('h1', 'data-read-by-agent')).toBeNull();
    await second.close();
    const reply = await ask(first, 'And now?');
    expect(reply.results).toEqual(['Quarterly report']);
    expect(await first.getAttribute('h1', 'data-read-by-agent')).toBe('true');
    await first.close();
  });

  test('when the offscreen document is closed and made again, the tab offers its tool to the new agent', async () => {
    const page = await context.newPage();
    await page.goto(`${server.url}/pages/visited.html`);
    await toolsStatus(page, 'connected');
    await background.evaluate(() =>
      (
        globalThis as unknown as { chrome: { offscreen: { closeDocument(): Promise<void> } } }
      ).chrome.offscreen.closeDocument(),
    );
    await toolsStatus(page, 'connecting');
    await background.evaluate(() =>
      (
        globalThis as unknown as { chrome: { offscreen: { createDocument(o: object): Promise<void> } } }
      ).chrome.offscreen.createDocument({
        url: 'offscreen.html',
        reasons: ['WORKERS'],
        justification: 'test: a new host',
      }),
    );
    await toolsStatus(page, 'connected');
    const reply = await ask(page, 'Still there?');
    expect(reply.results).toEqual(['Quarterly report']);
    // A new agent: the earlier test's refusal is not in its record.
    expect(reply.refused).toEqual([]);
    await page.close();
  });

  test('the side panel is a chat box: it asks the agent about the visited page and shows the tool result and the answer', async () => {
    const visited = await context.newPage();
    await visited.goto(`${server.url}/pages/visited.html`);
    await toolsStatus(visited, 'connected');
    const manifest = await background.evaluate(() =>
      (globalThis as unknown as { chrome: { runtime: { getManifest(): unknown } } }).chrome.runtime.getManifest(),
    );
    expect(manifest).toMatchObject({ side_panel: { default_path: 'sidepanel.html' }, action: {} });

    // The page the side panel shows, opened as a tab at a side panel's width.
    const panel = await context.newPage();
    await panel.setViewportSize({ width: 400, height: 640 });
    await panel.goto(`chrome-extension://${extensionId}/sidepanel.html`);
    // The tab says "connected" a moment before the host has registered its tool with the agent; until
    // then the engine says plainly that no page offers tools, and the visitor asks again.
    for (let asked = 1; ; asked++) {
      await panel.fill('#prompt', 'What is this page’s heading?');
      await panel.press('#prompt', 'Enter');
      // An answer, not the "Thinking…" line that stands in for it meanwhile (also an li.agent, .pending).
      await panel.waitForFunction((n) => document.querySelectorAll('#log li.agent:not(.pending)').length === n, asked, {
        timeout: 30_000,
      });
      const answer = await panel.locator('#log li.agent:not(.pending)').last().textContent();
      if (answer!.includes('“Quarterly report”')) break;
      expect(answer).toMatch(/^No page offers its tools yet/);
      expect(asked).toBeLessThan(10);
      await panel.waitForTimeout(300);
    }
    expect(await panel.locator('#log li.tool').allTextContents()).toEqual(['Tool result: Quarterly report']);
    expect(await panel.textContent('#model')).toBe('Answered by: Example engine (no model)');
    expect(await visited.getAttribute('h1', 'data-read-by-agent')).toBe('true');
    await panel.screenshot({ path: 'test-results/extension-side-panel.png' });
    await panel.close();
    await visited.close();
  });

  test('another extension cannot open a tool port to the agent', async () => {
    const outcome = await foreignBackground.evaluate(
      (id) =>
        new Promise<string>((resolve) => {
          const runtime = (
            globalThis as unknown as {
              chrome: {
                runtime: {
                  connect(id: string, info: { name: string }): { onDisconnect: { addListener(f: () => void): void } };
                  lastError?: { message?: string };
                };
              };
            }
          ).chrome.runtime;
          const port = runtime.connect(id, { name: 'inpage-agent/tools' });
          port.onDisconnect.addListener(() => resolve(`disconnected: ${runtime.lastError?.message ?? ''}`));
          setTimeout(() => resolve('still connected'), 5000);
        }),
      extensionId,
    );
    // The manifest's externally_connectable lists no extension ids, so Chromium ends it before the host sees it;
    // the host's own check (sender.id, onConnectExternal) is the second line, tested with the web page above.
    expect(outcome).toMatch(/^disconnected/);
    const page = await context.newPage();
    await page.goto(`${server.url}/pages/visited.html`);
    await toolsStatus(page, 'connected');
    expect((await ask(page, 'Which tools?')).results).toEqual(['Quarterly report']);
    await page.close();
  });
});
