// The demo's round trip: a scripted turn calls a page tool that adds a to-do.
// The session id is kept in localStorage, so a reload picks the conversation up where it was.
import { createAgent, defineTool, z, type AgentEvent } from '../src/index';

const todos = document.querySelector<HTMLUListElement>('#todos')!;
const log = document.querySelector<HTMLOListElement>('#log')!;
const eventsList = document.querySelector<HTMLOListElement>('#events')!;
const SESSION_KEY = 'inpage-agent-demo:session';

function addItem(text: string) {
  const item = document.createElement('li');
  item.textContent = text;
  todos.append(item);
}

const addTodo = defineTool({
  name: 'add_todo',
  description: 'Add an item to the to-do list on this page.',
  parameters: z.object({ text: z.string().min(1) }),
  execute: async ({ text }) => {
    addItem(text);
    return { id: `todo-${todos.children.length}` };
  },
});

function line(list: HTMLOListElement, text: string) {
  const item = document.createElement('li');
  item.textContent = text;
  list.append(item);
}

/** Shows one stored event: in the log as the conversation, in the list as the record. */
function show(event: AgentEvent) {
  line(eventsList, `#${event.seq} ${event.author} ${event.content?.role ?? ''} ${event.endReason ?? ''}`);
  const text = event.content?.parts.map((part) => ('text' in part ? part.text : '')).join('') ?? '';
  if (event.content?.role === 'user') line(log, `You: ${text}`);
  if (event.content?.role === 'model' && text) line(log, `Agent: ${text}`);
  for (const part of event.content?.parts ?? []) {
    // The page's own state is rebuilt from the log on a reload: the to-dos the agent added.
    if ('functionCall' in part && part.functionCall.name === 'add_todo' && restoring) addItem((part.functionCall.args as { text: string }).text);
  }
}

let restoring = true;
const agent = await createAgent({
  model: { engine: 'scripted', turns: Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? { toolCalls: [{ name: 'add_todo', args: { text: 'buy milk' } }] } : { text: 'Added “buy milk” to your list.' })) },
  instructions: 'You help with this page.',
  tools: [addTodo],
  storage: 'auto',
  sessionId: localStorage.getItem(SESSION_KEY) ?? undefined,
});
localStorage.setItem(SESSION_KEY, agent.sessionId);
document.querySelector('#model-label')!.textContent = agent.info?.model.label ?? '';
for (const event of (await agent.sessions.get(agent.sessionId))?.events ?? []) show(event);
restoring = false;

document.querySelector<HTMLFormElement>('#ask')!.addEventListener('submit', async (event) => {
  event.preventDefault();
  const prompt = document.querySelector<HTMLInputElement>('#prompt')!.value;
  for await (const ev of agent.run(prompt)) if (!ev.partial) show(ev);
});
