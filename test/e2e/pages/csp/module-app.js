// The README's module example with the scripted engine, importing the ESM build.
import { createAgent, defineTool, z } from '/vendor/lib/inpage-agent.js';

const addTodo = defineTool({
  name: 'add_todo',
  description: 'Add an item to the to-do list on this page.',
  parameters: z.object({ text: z.string().min(1) }),
  execute: async ({ text }) => {
    const item = document.createElement('li');
    item.textContent = text;
    document.querySelector('#todos').append(item);
    return { id: String(Date.now()) };
  },
});
try {
  const agent = await createAgent({
    model: {
      engine: 'scripted',
      turns: [{ toolCalls: [{ name: 'add_todo', args: { text: 'milk' } }] }, { text: 'Added milk.' }],
    },
    tools: [addTodo],
  });
  const { text } = await agent.send('Remember to buy milk');
  window.__result = { text };
} catch (error) {
  window.__result = { error: `${error.code ?? ''} ${error.message}` };
}
