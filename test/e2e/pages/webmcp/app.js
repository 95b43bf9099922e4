// The WebMCP example of docs/tools-and-approvals.md, run by test/e2e/webmcp.test.ts in Chromium with WebMCP switched on.
import { createAgent, defineTool, exposeToWebMCP, importWebMCPTools, z } from 'inpage-agent';

// 1. Our tool, offered to the browser's agents through WebMCP (nothing happens where the browser has none).
const addTodo = defineTool({
  name: 'add_todo',
  displayName: 'Add to-do',
  description: 'Add an item to the to-do list on this page.',
  parameters: z.object({ text: z.string().min(1) }),
  execute: async ({ text }) => {
    const item = document.createElement('li');
    item.textContent = text;
    document.querySelector('#todos').append(item);
    return { added: text };
  },
});
const exposure = await exposeToWebMCP([addTodo]);

// 2. A tool the page registered with WebMCP itself, taken into our agent.
await document.modelContext?.registerTool({
  name: 'page_title',
  description: "Reads this page's title.",
  inputSchema: { type: 'object', properties: { upper: { type: 'boolean' } } },
  annotations: { readOnlyHint: true },
  execute: async ({ upper }) => ({
    content: [{ type: 'text', text: upper ? document.title.toUpperCase() : document.title }],
  }),
});
const imported = await importWebMCPTools(undefined, { skip: exposure.exposed });

const agent = await createAgent({
  model: {
    engine: 'scripted',
    turns: [{ toolCalls: [{ name: 'page_title', args: { upper: true } }] }, { text: 'That is the title.' }],
  },
  tools: [addTodo, ...imported],
  storage: 'memory',
});
const { text, events } = await agent.send('What is this page called?');
const results = events.flatMap((event) =>
  event.content?.role === 'tool' ? event.content.parts.map((part) => part.functionResponse?.response) : [],
);

window.__result = {
  exposed: exposure.exposed,
  refused: exposure.refused.map((r) => r.name),
  imported: imported.map((tool) => tool.name),
  text,
  results,
};
