import { afterEach, expect, test } from 'vitest';
import { createAgent, defineTool, importWebMCPTools, toMCPTool, z, type Agent, type ModelContextLike, type WebMCPTool } from '../../src/index';
import { findModelContext } from '../../src/page/webmcp';
import { todoList } from './helpers';

/**
 * Chromium here has no WebMCP registry, so the tests use a stand-in of its
 * API shape (registerTool / unregisterTool, and the listing a browser's agent
 * side uses: listTools / executeTool). Everything on our side is real.
 */
function standInRegistry() {
  const tools = new Map<string, WebMCPTool>();
  const registry: ModelContextLike & { tools: Map<string, WebMCPTool> } = {
    tools,
    registerTool: (tool) => {
      tools.set(tool.name, tool);
      return { unregister: () => tools.delete(tool.name) };
    },
    unregisterTool: (name) => void tools.delete(name),
    listTools: () => [...tools.values()].map(({ name, description, inputSchema, annotations }) => ({ name, description, inputSchema: JSON.stringify(inputSchema), annotations })),
    executeTool: (name, input) => tools.get(name)!.execute(input as Record<string, unknown>),
  };
  return registry;
}

const agents: Agent[] = [];
afterEach(async () => {
  await Promise.all(agents.splice(0).map((agent) => agent.close()));
});

test('this Chromium has no WebMCP registry, and exposing to none does nothing', async () => {
  expect(findModelContext()).toBeUndefined();
  const agent = await createAgent({ model: { engine: 'scripted', turns: [] }, storage: 'memory', tools: [todoList().addTodo] });
  agents.push(agent);
  expect(agent.exposeToWebMCP().exposed).toEqual([]);
});

test("agent.exposeToWebMCP offers the page's tools: another agent's calls are validated and run in the page", async () => {
  const registry = standInRegistry();
  const todo = todoList();
  const agent = await createAgent({ model: { engine: 'scripted', turns: [] }, storage: 'memory', tools: [todo.addTodo] });
  agents.push(agent);
  const { exposed, unregister } = agent.exposeToWebMCP(registry);
  expect(exposed).toEqual(['add_todo']);
  expect(registry.tools.get('add_todo')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
  expect(await registry.executeTool!('add_todo', { text: 'from another agent' })).toEqual({ content: [{ type: 'text', text: '{"id":"todo-1"}' }] });
  expect(todo.items()).toEqual(['from another agent']);
  const bad = (await registry.executeTool!('add_todo', {})) as { isError: boolean; content: { text: string }[] };
  expect(bad.isError).toBe(true);
  expect(bad.content[0]!.text).toMatch(/"text" is required/);
  unregister();
  expect(registry.tools.size).toBe(0);
});

test('importWebMCPTools takes the tools a page registered there, and our agent can call them', async () => {
  const registry = standInRegistry();
  registry.registerTool({
    name: 'page_title',
    description: "Reads the page's title.",
    inputSchema: { type: 'object', properties: { upper: { type: 'boolean' } } },
    annotations: { readOnlyHint: true },
    execute: async (input) => ({ content: [{ type: 'text', text: input.upper ? 'DEMO' : 'demo' }] }),
  });
  const imported = importWebMCPTools(registry);
  expect(imported.map((tool) => tool.name)).toEqual(['page_title']);
  const agent = await createAgent({
    model: { engine: 'scripted', turns: [{ toolCalls: [{ name: 'page_title', args: { upper: true } }] }, { text: 'It is DEMO.' }] },
    tools: imported,
    storage: 'memory',
  });
  agents.push(agent);
  const { events, text } = await agent.send('what is the title?');
  expect(text).toBe('It is DEMO.');
  expect(events.find((event) => event.content?.role === 'tool')!.content!.parts[0]).toMatchObject({ functionResponse: { response: 'DEMO' } });
});

test('MCP-shaped export and import round-trip through WebMCP without losing annotations', () => {
  const registry = standInRegistry();
  const original = defineTool({
    name: 'archive',
    description: 'Archives a note.',
    displayName: 'Archive note',
    annotations: { readOnly: false, destructive: true, idempotent: true, openWorld: false },
    parameters: z.object({ id: z.string() }),
    execute: () => 'ok',
  });
  registry.registerTool({ ...toMCPTool(original), execute: async () => ({ content: [{ type: 'text', text: 'ok' }] }) });
  const [back] = importWebMCPTools(registry);
  expect(toMCPTool(back!).annotations).toEqual(toMCPTool(original).annotations);
  expect(toMCPTool(back!).inputSchema).toEqual(toMCPTool(original).inputSchema);
});
