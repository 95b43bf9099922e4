// The script-tag example of docs/install.md, run under the strict policy.
const { createAgent, defineTool, z } = window.InpageAgent;
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
createAgent({
  model: {
    engine: 'scripted',
    turns: [{ toolCalls: [{ name: 'add_todo', args: { text: 'milk' } }] }, { text: 'Added milk.' }],
  },
  tools: [addTodo],
})
  .then((agent) => agent.send('Remember to buy milk'))
  .then((result) => (window.__result = { text: result.text }))
  .catch((error) => (window.__result = { error: `${error.code ?? ''} ${error.message}` }));
