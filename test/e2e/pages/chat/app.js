// The chat of the script-tag build on a page of to-dos, with a scripted agent: a call that takes as long as the
// test wants (window.finishCall), a reply, and a destructive call that asks first. The test reads the page's
// state; nothing here is a model.
const { createAgent, defineTool, z } = window.InpageAgent;
const chat = document.querySelector('inpage-agent-chat');
const list = document.querySelector('#todos');

const addTodo = defineTool({
  name: 'add_todo',
  displayName: 'Add to-do',
  description: 'Add an item to the to-do list on this page.',
  parameters: z.object({ text: z.string().min(1) }),
  execute: ({ text }) =>
    new Promise((resolve) => {
      window.finishCall = () => {
        const item = document.createElement('li');
        item.textContent = text;
        list.append(item);
        resolve({ added: text, count: list.children.length });
      };
    }),
});
const clearTodos = defineTool({
  name: 'clear_todos',
  displayName: 'Clear all to-dos',
  description: 'Delete every item of the to-do list.',
  annotations: { destructive: true },
  parameters: z.object({}),
  execute: () => {
    const cleared = list.children.length;
    list.replaceChildren();
    return { cleared };
  },
});

createAgent({
  model: {
    engine: 'scripted',
    turns: [
      { toolCalls: [{ name: 'add_todo', args: { text: 'Buy milk' } }] },
      { text: 'I added “Buy milk” to your list. It has one item now.' },
      { toolCalls: [{ name: 'clear_todos', args: {} }] },
      { text: 'Done: your list is empty.' },
    ],
  },
  tools: [addTodo, clearTodos],
  storage: 'memory',
  onApproval: (call) => chat.approve(call),
}).then((agent) => {
  chat.agent = agent;
  window.chatReady = true;
});
