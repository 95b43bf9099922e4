import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { resolve } from 'node:path';
import { builtLibrary, serveStatic, type StaticServer } from './built-files';
import { chromiumArgs as quiet, findChromium } from '../../scripts/chromium.mjs';

/**
 * Chromium 156 has the WebMCP draft's `document.modelContext` behind a feature
 * switch: these tests use the browser's real registry, and act as the
 * browser's own agent through its getTools() / executeTool().
 */
let browser: Browser;
let server: StaticServer;

beforeAll(async () => {
  const dist = await builtLibrary();
  server = await serveStatic({ '/vendor/lib/': dist, '/pages/': resolve(import.meta.dirname, 'pages/webmcp') });
  browser = await chromium.launch({
    executablePath: findChromium(),
    args: [...quiet, '--enable-features=WebMCP'],
  });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

interface PageResult {
  exposed: string[];
  refused: string[];
  imported: string[];
  text: string;
  results: unknown[];
  error?: string;
}

async function openExample(): Promise<{ page: Page; result: PageResult }> {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${server.url}/pages/index.html`);
  await page
    .waitForFunction(() => (window as unknown as { __result?: unknown }).__result, null, { timeout: 30_000 })
    .catch(() => {
      throw new Error(`The example page did not finish: ${errors.join('; ') || 'no page error'}`);
    });
  const result = await page.evaluate(() => (window as unknown as { __result: PageResult }).__result);
  return { page, result };
}

describe("WebMCP, with the browser's own registry", () => {
  test("the page's tool is in the browser's registry, and the browser's agent can call it: validated, run in the page", async () => {
    const { page, result } = await openExample();
    expect(result.exposed).toEqual(['add_todo']);
    const seen = await page.evaluate(async () => {
      const registry = (
        document as unknown as {
          modelContext: {
            getTools(): Promise<{ name: string; title: string; annotations: { readOnlyHint: boolean } }[]>;
            executeTool(tool: unknown, input: unknown): Promise<string>;
          };
        }
      ).modelContext;
      const tools = await registry.getTools();
      const addTodo = tools.find((tool) => tool.name === 'add_todo')!;
      const good = await registry.executeTool(addTodo, { text: 'call the bank' });
      const bad = await registry.executeTool(addTodo, { text: 42 });
      return {
        names: tools.map((tool) => tool.name).sort(),
        title: addTodo.title,
        readOnly: addTodo.annotations.readOnlyHint,
        good: JSON.parse(good),
        bad: JSON.parse(bad),
        items: [...document.querySelectorAll('#todos li')].map((li) => li.textContent),
      };
    });
    expect(seen.names).toEqual(['add_todo', 'page_title']);
    expect(seen.title).toBe('Add to-do');
    expect(seen.readOnly).toBe(false);
    expect(seen.good).toEqual({ content: [{ type: 'text', text: '{"added":"call the bank"}' }] });
    // Bad arguments never reach the page's code: the caller gets our validation message.
    expect(seen.bad.isError).toBe(true);
    expect(seen.bad.content[0].text).toMatch(/text/);
    expect(seen.items).toEqual(['call the bank']);
    await page.close();
  });

  test('our agent calls a tool that the page registered with WebMCP itself', async () => {
    const { page, result } = await openExample();
    expect(result.imported).toEqual(['page_title']);
    expect(result.results).toEqual(['QUARTERLY REPORT']);
    expect(result.text).toBe('That is the title.');
    await page.close();
  });

  test('a tool exported to WebMCP and imported back keeps all its annotations, though the registry itself keeps only readOnlyHint', async () => {
    const { page } = await openExample();
    // A string, so that the test's own module transform leaves this import to the page.
    await page.evaluate("import('/vendor/lib/inpage-agent.js').then((lib) => { window.__lib = lib; })");
    const outcome = await page.evaluate(async () => {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const { defineTool, exposeToWebMCP, importWebMCPTools, toMCPTool, z } = (window as any).__lib;
      const archive = defineTool({
        name: 'archive_note',
        displayName: 'Archive note',
        description: 'Archives a note.',
        annotations: { readOnly: false, destructive: true, idempotent: true, openWorld: false },
        parameters: z.object({ id: z.string() }),
        execute: () => 'archived',
      });
      const exposure = await exposeToWebMCP([archive]);
      const registry = (
        document as unknown as {
          modelContext: { getTools(): Promise<{ name: string; annotations: Record<string, unknown> }[]> };
        }
      ).modelContext;
      const listed = (await registry.getTools()).find((tool) => tool.name === 'archive_note')!;
      const [back] = (await importWebMCPTools()).filter((tool: { name: string }) => tool.name === 'archive_note');
      const again = await exposeToWebMCP([archive]);
      exposure.unregister();
      const after = (await registry.getTools()).map((tool) => tool.name);
      return {
        inRegistry: listed.annotations,
        original: toMCPTool(archive),
        back: toMCPTool(back),
        refusedAgain: again.refused.map((r: { name: string; error: { code: string; message: string } }) => [
          r.name,
          r.error.code,
          r.error.message,
        ]),
        after,
      };
    });
    expect(outcome.inRegistry).not.toHaveProperty('destructiveHint');
    expect(outcome.back.annotations).toEqual(outcome.original.annotations);
    expect(outcome.back.inputSchema).toEqual(outcome.original.inputSchema);
    expect(outcome.back.title).toBe('Archive note');
    // A name can be registered once per page: the second try says so instead of failing silently.
    expect(outcome.refusedAgain).toEqual([
      ['archive_note', 'invalid-tool', expect.stringMatching(/refused the tool "archive_note".*once per page/)],
    ]);
    expect(outcome.after).not.toContain('archive_note');
    await page.close();
  });

  test("another page's tool whose schema holds a keyword our validator cannot judge is refused on import, by name and keyword; the others still import without it", async () => {
    const { page } = await openExample();
    await page.evaluate("import('/vendor/lib/inpage-agent.js').then((lib) => { window.__lib = lib; })");
    const outcome = await page.evaluate(async () => {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const { importWebMCPTools } = (window as any).__lib;
      const registry = (
        document as unknown as {
          modelContext: { registerTool(tool: unknown, options: { signal: AbortSignal }): Promise<void> };
        }
      ).modelContext;
      const controller = new AbortController();
      // As another script on the page would register it: a draft 2019-09 schema.
      await registry.registerTool(
        {
          name: 'save_outline',
          description: 'Saves an outline of nested sections.',
          inputSchema: {
            type: 'object',
            properties: { sections: { type: 'array', items: { $recursiveRef: '#' } } },
          },
          execute: async () => ({ content: [{ type: 'text', text: 'saved' }] }),
        },
        { signal: controller.signal },
      );
      const refused = await importWebMCPTools().then(
        () => undefined,
        (error: { code: string; message: string }) => [error.code, error.message],
      );
      const others = (await importWebMCPTools(undefined, { skip: ['save_outline'] })).map(
        (tool: { name: string }) => tool.name,
      );
      controller.abort();
      return { refused, others };
    });
    expect(outcome.refused?.[0]).toBe('invalid-tool');
    expect(outcome.refused?.[1]).toMatch(
      /^The WebMCP tool "save_outline".* cannot be imported\. .*properties\.sections\.items\.\$recursiveRef is not judged by this validator.*importWebMCPTools\(modelContext, \{ skip: \["save_outline"\] \}\)/,
    );
    expect(outcome.others).toContain('page_title');
    expect(outcome.others).not.toContain('save_outline');
    await page.close();
  });
});
