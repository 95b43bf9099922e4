/**
 * What only whole pages can show (issue #11): a second tab that opens a
 * session while the first runs a tool in it; a storage quota that is really
 * full (Chromium's own quota, lowered through DevTools before the origin's
 * first database opens); and a page with an opaque origin.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { resolve } from 'node:path';
import { builtLibrary, serveStatic, type StaticServer } from './built-files';
import { chromiumArgs as quiet, findChromium } from '../../scripts/chromium.mjs';

let browser: Browser;
let dist: string;

beforeAll(async () => {
  dist = await builtLibrary();
  browser = await chromium.launch({ executablePath: findChromium(), args: quiet });
});

afterAll(async () => {
  await browser?.close();
});

/** A server of its own per test: each test's pages get an origin (and a quota) nobody else touched. */
async function withServer<T>(run: (server: StaticServer, context: BrowserContext) => Promise<T>): Promise<T> {
  const server = await serveStatic({ '/vendor/lib/': dist, '/pages/': resolve(import.meta.dirname, 'pages/faults') });
  const context = await browser.newContext();
  try {
    return await run(server, context);
  } finally {
    await context.close();
    await server.close();
  }
}

async function open(context: BrowserContext, server: StaticServer, path = '/pages/index.html'): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${server.url}${path}`);
  await page.waitForFunction(() => (window as unknown as { ready?: boolean }).ready);
  return page;
}

describe('a second tab', () => {
  test('that opens a session while the first tab runs a tool in it never answers that live call', async () => {
    await withServer(async (server, context) => {
      const first = await open(context, server);
      await first.evaluate(async () => {
        const { createAgent, defineTool, z } = (window as any).lib;
        const slow = defineTool({
          name: 'place_order',
          description: 'Places an order; takes a while.',
          parameters: z.object({}),
          execute: async () => {
            (window as any).toolStarted = true;
            // Still running when the other tab has opened the session (it says so on this channel).
            await new Promise((resolve) => (new BroadcastChannel('second-tab').onmessage = resolve));
            return { orderId: 'A-1' };
          },
        });
        const agent = await createAgent({
          model: {
            engine: 'scripted',
            turns: [{ toolCalls: [{ name: 'place_order', args: {} }] }, { text: 'Ordered.' }],
          },
          tools: [slow],
          dbName: 'two-tabs',
          sessionId: 'shared',
        });
        (window as any).agent = agent;
        (window as any).sent = agent.send('order it');
      });
      await first.waitForFunction(() => (window as any).toolStarted);

      const second = await open(context, server);
      await second.evaluate(async () => {
        const { createAgent } = (window as any).lib;
        (window as any).agent = await createAgent({
          model: { engine: 'scripted', turns: [] },
          dbName: 'two-tabs',
          sessionId: 'shared',
        });
        // Give whatever the opening did a moment to land, then let the first tab's tool finish.
        await new Promise((resolve) => setTimeout(resolve, 300));
        new BroadcastChannel('second-tab').postMessage('opened');
      });
      expect(await first.evaluate(async () => (await (window as any).sent).text)).toBe('Ordered.');

      const answers = await second.evaluate(async () => {
        const { events } = await (window as any).agent.sessions.get('shared');
        return events.flatMap((e: any) =>
          (e.content?.parts ?? []).flatMap((p: any) => (p.functionResponse ? [p.functionResponse] : [])),
        );
      });
      expect(answers).toEqual([expect.objectContaining({ name: 'place_order', response: { orderId: 'A-1' } })]);
      expect(answers[0].error).toBeUndefined();
    });
  });
});

describe('a full disk', () => {
  /** Chromium's real quota for this origin, lowered as a full disk would leave it. */
  async function setQuota(page: Page, server: StaticServer, quotaSize?: number) {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Storage.overrideQuotaForOrigin', {
      origin: server.url,
      ...(quotaSize !== undefined && { quotaSize }),
    });
  }

  test('a crash left a call open and the quota is full: the error names a way out, and deleteSession works without an agent', async () => {
    await withServer(async (server, context) => {
      const first = await open(context, server);
      await setQuota(first, server, 4 * 1024 * 1024);
      const sessionId = await first.evaluate(async () => {
        const { createAgent, defineTool, z } = (window as any).lib;
        const hang = defineTool({
          name: 'save',
          description: 'Saves; never finishes here.',
          parameters: z.object({}),
          execute: async () => {
            (window as any).toolStarted = true;
            await new Promise(() => undefined);
          },
        });
        const agent = await createAgent({
          model: { engine: 'scripted', turns: [{ toolCalls: [{ name: 'save', args: {} }] }] },
          tools: [hang],
          dbName: 'full-disk',
        });
        void agent.send('save it');
        return agent.sessionId;
      });
      await first.waitForFunction(() => (window as any).toolStarted);
      // The tab goes away mid-call (a crash, a closed tab): the call is left open in storage.
      await first.close();

      const second = await open(context, server);
      // The override lives as long as the DevTools session that set it: set it again for this page.
      await setQuota(second, server, 4 * 1024 * 1024);
      // Something else of the site's fills the rest of the quota, as a full disk would.
      const filled = await second.evaluate(async () => {
        const db: IDBDatabase = await new Promise((resolve, reject) => {
          const request = indexedDB.open('filler', 1);
          request.onupgradeneeded = () => request.result.createObjectStore('blobs');
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(request.error);
        });
        const put = (key: number, size: number) =>
          new Promise<boolean>((resolve) => {
            const tx = db.transaction('blobs', 'readwrite');
            // Random bytes: Chromium compresses repetitive values, which would fill nothing.
            const bytes = new Uint8Array(size);
            for (let i = 0; i < size; i += 65536) crypto.getRandomValues(bytes.subarray(i, Math.min(size, i + 65536)));
            tx.objectStore('blobs').put(bytes, key);
            tx.oncomplete = () => resolve(true);
            tx.onabort = () => resolve(false);
          });
        let key = 0;
        for (const size of [256 * 1024, 16 * 1024, 1024]) while (await put(key++, size));
        db.close();
        return key;
      });
      expect(filled).toBeGreaterThan(3);
      const attempt = await second.evaluate(async (id) => {
        const { createAgent } = (window as any).lib;
        try {
          const agent = await createAgent({
            model: { engine: 'scripted', turns: [{ text: 'hi' }] },
            dbName: 'full-disk',
            sessionId: id,
          });
          const result = await agent.send('hello');
          return { code: result.error?.code, message: result.error?.message };
        } catch (error: any) {
          return { code: error.code, message: error.message, thrown: true };
        }
      }, sessionId);
      expect(attempt.code).toBe('quota-exceeded');
      expect(attempt.message).toMatch(/deleteSession\(id, \{ dbName \}\)/);

      const left = await second.evaluate(async (id) => {
        const { listSessions, deleteSession } = (window as any).lib;
        const before = (await listSessions({ dbName: 'full-disk' })).map((s: any) => s.id);
        await deleteSession(id, { dbName: 'full-disk' });
        const after = (await listSessions({ dbName: 'full-disk' })).map((s: any) => s.id);
        return { before, after };
      }, sessionId);
      expect(left.before).toContain(sessionId);
      expect(left.after).not.toContain(sessionId);
    });
  });

  test('a tool answer too big for the quota: the call is still answered, with that error, in the same run', async () => {
    await withServer(async (server, context) => {
      const page = await open(context, server);
      await setQuota(page, server, 1024 * 1024);
      const outcome = await page.evaluate(async () => {
        const { createAgent, defineTool, z } = (window as any).lib;
        // Within the size a result may take (1,000,000 characters of JSON each for content and artifact), over the quota.
        const big = defineTool({
          name: 'export_all',
          description: 'Returns a very large export.',
          parameters: z.object({}),
          execute: () => ({ content: 'x'.repeat(900_000), artifact: 'y'.repeat(900_000) }),
        });
        const agent = await createAgent({
          model: { engine: 'scripted', turns: [{ toolCalls: [{ name: 'export_all', args: {} }] }, { text: 'never' }] },
          tools: [big],
          dbName: 'too-big',
        });
        const result = await agent.send('export');
        const { events } = await agent.sessions.get(agent.sessionId);
        const answers = events.flatMap((e: any) =>
          (e.content?.parts ?? []).flatMap((p: any) => (p.functionResponse ? [p.functionResponse] : [])),
        );
        return { error: result.error, endReason: result.endReason, answers };
      });
      expect(outcome.endReason).toBe('error');
      expect(outcome.error.code).toBe('quota-exceeded');
      expect(outcome.answers).toEqual([
        expect.objectContaining({
          name: 'export_all',
          response: null,
          error: expect.stringMatching(/could not be stored/),
        }),
      ]);
    });
  });
});

describe('an opaque origin', () => {
  test('in a sandboxed iframe without allow-same-origin, createAgent settles at once with a clear error', async () => {
    await withServer(async (server, context) => {
      const page = await context.newPage();
      await page.goto(`${server.url}/pages/sandboxed.html`);
      // A hang check with room for a slow machine, not a speed check; the note reports the time measured.
      const result = await Promise.race([
        page.evaluate(() => (window as any).result),
        new Promise((_, reject) => setTimeout(() => reject(new Error('createAgent did not settle within 5 s')), 5000)),
      ]);
      expect(result).toMatchObject({ outcome: 'refused', code: 'worker-failed', name: 'AgentError' });
      expect((result as { message: string }).message).toMatch(/opaque origin/);
      expect((result as { message: string }).message).toMatch(/allow-same-origin/);
    });
  });
});

describe('nothing leaves the browser', () => {
  test('a run sends no request with the prompt, a tool’s arguments or its result: only the page’s own files are fetched', async () => {
    await withServer(async (server, context) => {
      const requests: { url: string; method: string; body: string | null }[] = [];
      // The context sees the page's requests and its workers'.
      context.on('request', (request) =>
        requests.push({ url: request.url(), method: request.method(), body: request.postData() }),
      );
      const page = await open(context, server);
      const answer = await page.evaluate(async () => {
        const { createAgent, defineTool, z } = (window as any).lib;
        const lookUp = defineTool({
          name: 'look_up',
          description: 'Looks a code up.',
          parameters: z.object({ code: z.string() }),
          execute: ({ code }: { code: string }) => ({ found: `${code}-RESULT-7781` }),
        });
        const agent = await createAgent({
          model: {
            engine: 'scripted',
            turns: [{ toolCalls: [{ name: 'look_up', args: { code: 'SECRET-ARG-5519' } }] }, { text: 'Found it.' }],
          },
          tools: [lookUp],
          dbName: 'no-leaks',
        });
        const result = await agent.send('my PIN is PROMPT-SECRET-3307, look it up');
        await agent.close();
        return result.text;
      });
      expect(answer).toBe('Found it.');
      expect(requests.length).toBeGreaterThan(0);
      for (const request of requests) {
        expect(new URL(request.url).origin).toBe(server.url);
        expect(request.method).toBe('GET');
        expect(request.body).toBeNull();
        expect(request.url).not.toMatch(/SECRET|RESULT-7781/);
      }
    });
  });
});
