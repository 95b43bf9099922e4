import { test } from 'vitest';
import { createAgent, defineTool, z, type AgentEvent } from '../../src/index';

const REQUESTS = (import.meta.env.VITE_LAB_REQUESTS ?? '').split('|').filter(Boolean);
const DEFAULT = [
  'hi there',
  'can you remember that I need to buy milk',
  'oh and eggs and bread too',
  "what's on my list now?",
  'I got the milk, tick it off',
  'sort the products so the cheapest is first',
  'thanks!',
  'write a note: dentist on friday at 10',
  'please clear the whole list',
  'did that work?',
];

test('conversation', async () => {
  const page = {
    todos: [] as { text: string; done: boolean }[],
    notes: [] as unknown[],
    sort: null as unknown,
    form: null as unknown,
  };
  const tools = [
    defineTool({
      name: 'add_todo',
      description: 'Add an item to the to-do list on this page.',
      whenToUse: 'When the user asks to remember a task.',
      parameters: z.object({ text: z.string().min(1).max(200) }),
      execute: ({ text }) => (page.todos.push({ text, done: false }), { id: `t${page.todos.length}` }),
    }),
    defineTool({
      name: 'complete_todo',
      description: 'Mark the to-do whose text matches as done.',
      parameters: z.object({ text: z.string().min(1) }),
      annotations: { idempotent: true },
      execute: ({ text }) => {
        const t = page.todos.find((x) => x.text.toLowerCase().includes(text.toLowerCase()));
        if (!t)
          throw new Error(
            `No to-do matches "${text}". Existing: ${page.todos.map((x) => x.text).join(', ') || 'none'}.`,
          );
        t.done = true;
        return { done: t.text };
      },
    }),
    defineTool({
      name: 'list_todos',
      description: 'Read the to-do list on this page.',
      parameters: z.object({}),
      annotations: { readOnly: true },
      execute: () => page.todos,
    }),
    defineTool({
      name: 'clear_todos',
      description: 'Delete every item of the to-do list.',
      parameters: z.object({}),
      annotations: { destructive: true },
      execute: () => {
        const n = page.todos.length;
        page.todos = [];
        return { cleared: n };
      },
    }),
    defineTool({
      name: 'add_note',
      description: 'Write a note on this page.',
      parameters: z.object({ title: z.string().min(1), body: z.string() }),
      execute: (a) => (page.notes.push(a), { notes: page.notes.length }),
    }),
    defineTool({
      name: 'sort_table',
      description: 'Sort the products table by a column, and optionally keep only rows whose name contains a text.',
      parameters: z.object({
        column: z.enum(['name', 'price', 'stock']),
        descending: z.boolean().optional(),
        filter: z.string().optional(),
      }),
      annotations: { idempotent: true },
      execute: (a) => ((page.sort = a), { order: ['Lamp', 'Desk', 'Chair'] }),
    }),
    defineTool({
      name: 'fill_form',
      description: 'Fill the contact form on this page (it is not sent; the person reviews and sends it).',
      parameters: z.object({ name: z.string().min(1), email: z.email(), message: z.string().min(1) }),
      execute: (a) => ((page.form = a), { filled: ['name', 'email', 'message'] }),
    }),
  ];
  const decisions = import.meta.env.VITE_LAB_DECISIONS !== 'off';
  const agent = await createAgent({
    model: { engine: 'wllama', url: '/models/qwen2.5-coder-0.5b-instruct-q4_k_m.gguf', threads: 1 },
    instructions:
      'You help with this page: its to-dos, notes, products table and contact form. Use the tools; answer briefly.',
    tools,
    storage: 'memory',
    decisions,
    onApproval: () => true,
  });
  for (const request of REQUESTS.length ? REQUESTS : DEFAULT) {
    const t0 = performance.now();
    const { text, events } = await agent.send(request);
    const calls = events.flatMap((e: AgentEvent) =>
      (e.content?.parts ?? []).flatMap((p) =>
        'functionCall' in p ? [`${p.functionCall.name}(${JSON.stringify(p.functionCall.args)})`] : [],
      ),
    );
    const decided = events
      .filter((e) => e.decision)
      .map((e) => JSON.stringify(e.decision))
      .join(' ');
    const claims = events
      .filter((e) => e.unperformedClaims)
      .map((e) => JSON.stringify(e.unperformedClaims))
      .join(' ');
    console.log(
      `LAB > ${request}\nLAB   calls: ${calls.join(', ') || '—'}\nLAB   reply: ${JSON.stringify(text)} (${((performance.now() - t0) / 1000).toFixed(1)} s) ${decided} ${claims}`,
    );
  }
  console.log('LAB page', JSON.stringify(page));
  await agent.close();
}, 3_600_000);
