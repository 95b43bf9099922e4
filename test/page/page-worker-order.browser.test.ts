/**
 * The page's calls reach the worker in the order the page made them (one port, services by path): a run
 * sent right after an un-awaited openSession(id), registerTool or unregisterTool sees them as the page left
 * them, and so do calls made while a crashed worker restarts. (On main at 2cb0470 a message sent right after
 * an un-awaited openSession landed in the previous session.)
 */
import { expect, test } from 'vitest';
import { defineTool, z, type AgentEvent, type AgentStatus } from '../../src/index';
import { agentsClosedAfterEach, killableWorker, todoList, uniqueDb } from './helpers';

const start = agentsClosedAfterEach();

async function userTexts(agent: Awaited<ReturnType<typeof start>>, id: string): Promise<string[]> {
  return ((await agent.sessions.get(id))?.events ?? []).flatMap((event) =>
    event.content?.role === 'user' ? event.content.parts.map((part) => ('text' in part ? part.text : '')) : [],
  );
}

const offered = (events: AgentEvent[]) => events.find((event) => event.content?.role === 'model')!.offeredTools;

const note = (name: string) =>
  defineTool({
    name,
    description: `Keep a note (${name}).`,
    parameters: z.object({ text: z.string() }),
    execute: async () => ({ ok: true }),
  });

test('a message sent right after an un-awaited openSession(id) lands in that session', async () => {
  const agent = await start({
    model: { engine: 'scripted', turns: [{ text: 'Hello.' }] },
    dbName: uniqueDb('open-session-order'),
  });
  const before = agent.sessionId;
  void agent.openSession('the-other-session');
  await agent.send('Which session am I in?');
  expect(await userTexts(agent, 'the-other-session')).toEqual(['Which session am I in?']);
  expect(await userTexts(agent, before)).toEqual([]);
});

test('a burst of un-awaited changes, then a run: the run sees each as the page left it, in order', async () => {
  const todo = todoList();
  const agent = await start({
    model: { engine: 'scripted', turns: [{ text: 'one' }, { text: 'two' }] },
    dbName: uniqueDb('burst-order'),
  });
  void agent.registerTool(todo.addTodo);
  void agent.registerTool(note('note_a'));
  void agent.openSession('first');
  void agent.unregisterTool('note_a');
  void agent.registerTool(note('note_b'));
  void agent.openSession('second');
  expect(offered((await agent.send('In which session, with which tools?')).events)).toEqual(['add_todo', 'note_b']);
  void agent.unregisterTool('add_todo');
  expect(offered((await agent.send('And now?')).events)).toEqual(['note_b']);
  expect(await userTexts(agent, 'second')).toEqual(['In which session, with which tools?', 'And now?']);
  expect(await userTexts(agent, 'first')).toEqual([]);
});

test('calls made while a crashed worker restarts reach the new worker in the order they were made', async () => {
  const worker = killableWorker();
  const agent = await start({
    model: { engine: 'scripted', turns: [{ text: 'after the restart' }] },
    dbName: uniqueDb('restart-order'),
    workerUrl: worker.workerUrl,
  });
  const crashed = new Promise<void>((resolve) =>
    agent.addEventListener('status', (event) => {
      if ((event as CustomEvent<{ status: AgentStatus }>).detail.status === 'crashed') resolve();
    }),
  );
  worker.kill();
  await crashed;
  // The new worker is starting: each of these waits for it, and they leave in this order.
  void agent.registerTool(note('note_c'));
  void agent.openSession('after-crash');
  void agent.unregisterTool('note_c');
  void agent.registerTool(note('note_d'));
  const result = await agent.send('Where am I now?');
  expect(offered(result.events)).toEqual(['note_d']);
  expect(await userTexts(agent, 'after-crash')).toEqual(['Where am I now?']);
});
