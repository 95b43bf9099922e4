import { afterEach, expect, test } from 'vitest';
import {
  exposeToWebMCP,
  findModelContext,
  importWebMCPTools,
  type ModelContextLike,
  type WebMCPTool,
} from '../../src/page/webmcp';
import { todoList } from './helpers';

/**
 * The browser's real registry is tested in test/e2e/webmcp.test.ts (Chromium
 * with --enable-features=WebMCP). Here: Chromium as visitors have it today
 * (no registry), and the older drafts' `navigator.modelContext`, which no
 * browser here implements, so a stand-in of that shape takes its place.
 */
function olderDraftRegistry(style: 'handle' | 'unregisterTool') {
  const tools = new Map<string, WebMCPTool>();
  const registry: ModelContextLike = {
    registerTool: (tool) => {
      if (tools.has(tool.name)) throw new Error('Duplicate tool name');
      tools.set(tool.name, tool);
      return style === 'handle' ? { unregister: () => void tools.delete(tool.name) } : undefined;
    },
    ...(style === 'unregisterTool' && { unregisterTool: (name: string) => void tools.delete(name) }),
  };
  return { registry, tools };
}

afterEach(() => {
  delete (navigator as { modelContext?: unknown }).modelContext;
});

test('without a WebMCP registry (Chromium by default), nothing is exposed or imported, and nothing fails', async () => {
  expect(findModelContext()).toBeUndefined();
  const exposure = await exposeToWebMCP([todoList().addTodo]);
  expect(exposure).toMatchObject({ exposed: [], refused: [] });
  exposure.unregister();
  expect(await importWebMCPTools()).toEqual([]);
});

test.each(['handle', 'unregisterTool'] as const)(
  "an older draft's navigator.modelContext (unregistering by %s) gets the page's tools, and gets them back out",
  async (style) => {
    const { registry, tools } = olderDraftRegistry(style);
    Object.defineProperty(navigator, 'modelContext', { value: registry, configurable: true });
    expect(findModelContext()).toBe(registry);
    const todo = todoList();
    const exposure = await exposeToWebMCP([todo.addTodo]);
    expect(exposure.exposed).toEqual(['add_todo']);
    // Another agent's call: validated by our zod schema, run in this page.
    expect(await tools.get('add_todo')!.execute({ text: 'from another agent' })).toEqual({
      content: [{ type: 'text', text: '{"id":"todo-1"}' }],
    });
    expect(todo.items()).toEqual(['from another agent']);
    const bad = (await tools.get('add_todo')!.execute({})) as { isError: boolean; content: { text: string }[] };
    expect(bad.isError).toBe(true);
    expect(bad.content[0]!.text).toMatch(/"text"/);
    expect(todo.items()).toEqual(['from another agent']);
    exposure.unregister();
    expect(tools.size).toBe(0);
  },
);

test('a registry that refuses a tool (a name taken twice) is reported per tool; the others are still exposed', async () => {
  const { registry } = olderDraftRegistry('handle');
  const first = todoList().addTodo;
  await exposeToWebMCP([first], registry);
  const again = await exposeToWebMCP([first], registry);
  expect(again.exposed).toEqual([]);
  expect(again.refused.map(({ name, error }) => [name, error.code])).toEqual([['add_todo', 'invalid-tool']]);
  expect(again.refused[0]!.error.message).toMatch(/Duplicate tool name.*unregister the earlier one first/);
});
