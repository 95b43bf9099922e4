// The demo's first round trip: a scripted turn calls a page tool that adds a to-do.
import { createAgent, defineTool, z } from '../src/index';

const todos = document.querySelector<HTMLUListElement>('#todos')!;
const log = document.querySelector<HTMLOListElement>('#log')!;
const eventsList = document.querySelector<HTMLOListElement>('#events')!;

const addTodo = defineTool({
  name: 'add_todo',
  description: 'Add an item to the to-do list on this page.',
  parameters: z.object({ text: z.string().min(1) }),
  execute: async ({ text }) => {
    const item = document.createElement('li');
    item.textContent = text;
    todos.append(item);
    return { id: `todo-${todos.children.length}` };
  },
});

function line(list: HTMLOListElement, text: string) {
  const item = document.createElement('li');
  item.textContent = text;
  list.append(item);
}

const agent = await createAgent({
  model: { engine: 'scripted', turns: Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? { toolCalls: [{ name: 'add_todo', args: { text: 'buy milk' } }] } : { text: 'Added “buy milk” to your list.' })) },
  instructions: 'You help with this page.',
  tools: [addTodo],
  storage: 'auto',
});
document.querySelector('#model-label')!.textContent = agent.info?.model.label ?? '';

document.querySelector<HTMLFormElement>('#ask')!.addEventListener('submit', async (event) => {
  event.preventDefault();
  const prompt = document.querySelector<HTMLInputElement>('#prompt')!.value;
  line(log, `You: ${prompt}`);
  for await (const ev of agent.run(prompt)) {
    if (ev.partial) continue;
    line(eventsList, `#${ev.seq} ${ev.author} ${ev.content?.role ?? ''} ${ev.endReason ?? ''}`);
    const text = ev.content?.role === 'model' ? ev.content.parts.map((p) => ('text' in p ? p.text : '')).join('') : '';
    if (text) line(log, `Agent: ${text}`);
  }
});
