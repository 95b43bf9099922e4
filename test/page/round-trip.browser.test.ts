import { describe, expect, test } from 'vitest';
import { defineTool, z } from '../../src/index';
import { agentsClosedAfterEach, calls, responses, todoList, uniqueDb } from './helpers';

const start = agentsClosedAfterEach();

describe('page → worker → page tool round trip', () => {
  test('a scripted model calls a page tool in the page, the DOM changes, and the answer comes back', async () => {
    const todo = todoList();
    const agent = await start({
      model: {
        engine: 'scripted',
        turns: [{ toolCalls: [{ name: 'add_todo', args: { text: 'milk' } }] }, { text: 'Added milk.' }],
      },
      tools: [todo.addTodo],
      dbName: uniqueDb('round-trip'),
    });
    const { text, events, endReason } = await agent.send('Remember to buy milk');
    expect(todo.items()).toEqual(['milk']);
    expect(text).toBe('Added milk.');
    expect(endReason).toBe('answer');
    expect(events.map((event) => event.content?.role)).toEqual(['user', 'model', 'tool', 'model']);
    expect(responses(events)).toEqual([{ id: calls(events)[0]!.id, name: 'add_todo', response: { id: 'todo-1' } }]);
    expect(events.map((event) => event.seq)).toEqual([1, 2, 3, 4]);
  });

  test('run() streams events as they happen, ending with the reason', async () => {
    const todo = todoList();
    const agent = await start({
      model: {
        engine: 'scripted',
        turns: [{ toolCalls: [{ name: 'add_todo', args: { text: 'eggs' } }] }, { text: 'Done.' }],
      },
      tools: [todo.addTodo],
      storage: 'memory',
    });
    const seen: string[] = [];
    for await (const event of agent.run('eggs please')) {
      if (!event.partial) seen.push(`${event.author}:${event.content?.role ?? '-'}`);
      if (event.content?.role === 'tool') expect(todo.items()).toEqual(['eggs']);
    }
    expect(seen).toEqual(['user:user', 'assistant:model', 'assistant:tool', 'assistant:model']);
  });

  test('the agent says running from the first run it streams until the last one ends, then ready', async () => {
    const agent = await start({
      model: {
        engine: 'scripted',
        turns: [
          { text: 'one', delayMs: 50 },
          { text: 'two', delayMs: 50 },
        ],
      },
      storage: 'memory',
    });
    const seen: string[] = [];
    agent.addEventListener('status', (event) => seen.push((event as CustomEvent<{ status: string }>).detail.status));
    // The second waits for the first (one run of a session at a time): the agent is running all along.
    const [first, second] = await Promise.all([agent.send('a'), agent.send('b')]);
    expect([first.text, second.text]).toEqual(['one', 'two']);
    expect(seen).toEqual(['running', 'ready']);
    expect(agent.status).toBe('ready');
  });

  test('invalid arguments from the model are answered with an error naming the field, and execute never runs', async () => {
    const todo = todoList();
    const agent = await start({
      model: {
        engine: 'scripted',
        turns: [{ toolCalls: [{ name: 'add_todo', args: { due: 5 } }] }, { text: 'Sorry, I will try again.' }],
      },
      tools: [todo.addTodo],
      storage: 'memory',
    });
    const { events, text } = await agent.send('add something');
    const [response] = responses(events);
    expect(response!.error).toMatch(/"text" is required/);
    expect(response!.error).toMatch(/"due" must be a string/);
    expect(todo.calls).toEqual([]);
    expect(text).toBe('Sorry, I will try again.');
  });

  test('a tool that throws becomes an error response and the run goes on', async () => {
    const broken = defineTool({
      name: 'broken',
      description: 'Always fails.',
      parameters: z.object({}),
      execute: () => {
        throw new Error('the shelf is full');
      },
    });
    const agent = await start({
      model: {
        engine: 'scripted',
        turns: [{ toolCalls: [{ name: 'broken', args: {} }] }, { text: 'The shelf is full.' }],
      },
      tools: [broken],
      storage: 'memory',
    });
    const { events, text, endReason } = await agent.send('go');
    expect(responses(events)[0]!.error).toMatch(/broken.*the shelf is full/);
    expect(text).toBe('The shelf is full.');
    expect(endReason).toBe('answer');
  });

  test('a tool that hangs past its timeout becomes a tool-timeout response and the run goes on', async () => {
    const hangs = defineTool({
      name: 'hangs',
      description: 'Never answers and ignores its signal.',
      parameters: z.object({}),
      timeoutMs: 200,
      execute: () => new Promise(() => undefined),
    });
    const agent = await start({
      model: { engine: 'scripted', turns: [{ toolCalls: [{ name: 'hangs', args: {} }] }, { text: 'It timed out.' }] },
      tools: [hangs],
      storage: 'memory',
    });
    const { events, text } = await agent.send('go');
    expect(responses(events)[0]!.error).toMatch(/200 ?ms/);
    expect(text).toBe('It timed out.');
  });

  test('a second agent on the same session id sees the earlier events in IndexedDB', async () => {
    const todo = todoList();
    const dbName = uniqueDb('resume');
    const first = await start({
      model: {
        engine: 'scripted',
        turns: [{ toolCalls: [{ name: 'add_todo', args: { text: 'bread' } }] }, { text: 'Added bread.' }],
      },
      tools: [todo.addTodo],
      dbName,
    });
    await first.send('bread');
    const sessionId = first.sessionId;
    await first.close();

    const second = await start({
      model: { engine: 'scripted', turns: [{ text: 'You asked for bread.' }] },
      tools: [todo.addTodo],
      dbName,
      sessionId,
    });
    expect(second.sessionId).toBe(sessionId);
    const stored = await second.sessions.get(sessionId);
    expect(stored!.events.map((event) => event.content?.role)).toEqual(['user', 'model', 'tool', 'model']);
    const { events } = await second.send('what did I ask?');
    expect(events[0]!.seq).toBe(5);
  });

  test("a tool's async-iterable output streams as partial events before the final response is recorded", async () => {
    const countdown = defineTool({
      name: 'countdown',
      description: 'Counts down.',
      parameters: z.object({ from: z.number().int() }),
      execute: async function* ({ from }) {
        for (let n = from; n > 0; n--) yield `${n} `;
      },
    });
    const agent = await start({
      model: {
        engine: 'scripted',
        turns: [{ toolCalls: [{ name: 'countdown', args: { from: 3 } }] }, { text: 'Lift-off.' }],
      },
      tools: [countdown],
      storage: 'memory',
    });
    const partial: unknown[] = [];
    let final: unknown;
    for await (const event of agent.run('count down')) {
      const part = event.content?.parts[0];
      if (!part || !('functionResponse' in part)) continue;
      if (event.partial) partial.push(part.functionResponse.response);
      else final = part.functionResponse.response;
    }
    expect(partial).toEqual(['3 ', '2 ', '1 ']);
    expect(final).toBe('3 2 1 ');
  });

  test('when the scripted turns run out, the run ends with an error event that says so', async () => {
    const agent = await start({ model: { engine: 'scripted', turns: [] }, storage: 'memory' });
    const { events, endReason, error } = await agent.send('hello');
    expect(endReason).toBe('error');
    expect(error?.code).toBe('script-exhausted');
    expect(events.at(-1)!.error!.message).toMatch(/no turn left/);
  });
});
