// One tab of the shared-model test: its own tool, its own session, the model shared.
import { createAgent, defineTool, z } from '/vendor/lib/inpage-agent.js';

const tab = new URLSearchParams(location.search).get('tab');
document.title = `tab ${tab}`;
const addTodo = defineTool({
  name: 'add_todo',
  description: 'Add an item to the to-do list on this page.',
  parameters: z.object({ text: z.string().min(1) }),
  execute: async ({ text }) => {
    const item = document.createElement('li');
    item.textContent = `${text} (in ${document.title})`;
    document.querySelector('#todos').append(item);
    return { tab: document.title };
  },
});
// Every tab plays the same script, so every tab asks for the same model.
const turns = Array.from({ length: 20 }, (_, i) =>
  i % 2 === 0 ? { toolCalls: [{ name: 'add_todo', args: { text: 'milk' } }] } : { text: 'Added.' },
);
window.agentReady = createAgent({
  model: { engine: 'scripted', turns },
  tools: [addTodo],
  share: 'tabs',
  dbName: 'tabs-test',
}).then((agent) => {
  window.agent = agent;
  return { sessionId: agent.sessionId, modelShared: agent.info.modelShared, host: agent.info.host };
});
window.ask = async (text) => {
  const { text: answer, events } = await window.agent.send(text);
  return { answer, author: events[0].sessionId };
};
