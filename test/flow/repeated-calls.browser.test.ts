// A model that loops: the same call again, with the same arguments, in one run. Qwen2.5-Coder 0.5B added
// "Buy milk" four times for one request. The page's tool runs once; the model is told its result is already
// there; a model that repeats again ends the run with 'repeated-call' (createAgent({ maxRepeatedCalls })).
import { describe, expect, test } from 'vitest';
import { AgentError, defineTool, z } from '../../src/index';
import { agentsClosedAfterEach, calls, responses, todoList } from '../page/helpers';

const start = agentsClosedAfterEach();
const milk = { name: 'add_todo', args: { text: 'Buy milk' } };

function listTool(reads: string[]) {
  return defineTool({
    name: 'list_todos',
    description: 'List the to-do items.',
    annotations: { readOnly: true },
    parameters: z.object({}),
    execute: async () => {
      reads.push('list');
      return [];
    },
  });
}

describe('a call the run already made', () => {
  test('is not run again: the model is told its result is above, and an answer after that ends the run well', async () => {
    const { addTodo, items } = todoList();
    const agent = await start({
      model: {
        engine: 'scripted',
        turns: [{ toolCalls: [milk] }, { toolCalls: [milk] }, { text: 'Milk is on your list.' }],
      },
      tools: [addTodo],
      storage: 'memory',
    });
    const { events, text, endReason } = await agent.send('Remember to buy milk');
    expect(items()).toEqual(['Buy milk']);
    expect(responses(events)[1]).toMatchObject({ code: 'repeated-call', response: null });
    expect(responses(events)[1]!.error).toMatch(/already called with these arguments.*answer the user/s);
    expect([text, endReason]).toEqual(['Milk is on your list.', 'answer']);
  });

  test('a model that repeats after being told ends the run with repeated-call, and says why', async () => {
    const { addTodo, items } = todoList();
    const agent = await start({
      model: {
        engine: 'scripted',
        turns: [{ toolCalls: [milk] }, { toolCalls: [milk] }, { toolCalls: [milk] }, { text: 'never' }],
      },
      tools: [addTodo],
      storage: 'memory',
    });
    const { events, endReason, error } = await agent.send('Remember to buy milk');
    expect(items()).toEqual(['Buy milk']);
    expect(endReason).toBe('repeated-call');
    expect(error).toMatchObject({ code: 'repeated-call' });
    expect(error!.message).toMatch(/maxRepeatedCalls/);
    expect(calls(events)).toHaveLength(3);
  });

  test('the same call twice in one turn runs once; arguments in another key order are the same call', async () => {
    const { addTodo, items } = todoList();
    const agent = await start({
      model: {
        engine: 'scripted',
        turns: [
          {
            toolCalls: [
              { name: 'add_todo', args: { text: 'Buy milk', due: 'today' } },
              { name: 'add_todo', args: { due: 'today', text: 'Buy milk' } },
            ],
          },
          { text: 'Done.' },
        ],
      },
      tools: [addTodo],
      storage: 'memory',
    });
    const { events } = await agent.send('Remember to buy milk today');
    expect(items()).toEqual(['Buy milk']);
    expect(responses(events).map((r) => r.code ?? 'ran')).toEqual(['ran', 'repeated-call']);
  });

  test('a read made again after a change runs (list, add, list), and each request is a run of its own', async () => {
    const reads: string[] = [];
    const { addTodo, items } = todoList();
    const list = { name: 'list_todos', args: {} };
    const agent = await start({
      model: {
        engine: 'scripted',
        turns: [
          { toolCalls: [list] },
          { toolCalls: [milk] },
          { toolCalls: [list] },
          { text: 'Listed.' },
          { toolCalls: [milk] },
          { text: 'Added.' },
        ],
      },
      tools: [addTodo, listTool(reads)],
      storage: 'memory',
    });
    const first = await agent.send('Add milk and show me the list');
    expect(reads).toEqual(['list', 'list']);
    expect(first.endReason).toBe('answer');
    // The next request may add the same again: the visitor asked again.
    await agent.send('Add milk once more');
    expect(items()).toEqual(['Buy milk', 'Buy milk']);
  });

  test('a call its tool failed is not run again the same way until something changes', async () => {
    // The 0.5B, told there is no to-do at that place in the list ("the second one"), wrote the same call again.
    const { addTodo, items } = todoList();
    const tried: string[] = [];
    const completeTodo = defineTool({
      name: 'complete_todo',
      description: 'Mark the to-do whose text matches as done.',
      parameters: z.object({ text: z.string() }),
      execute: ({ text }) => {
        tried.push(text);
        const found = items().find((item) => item?.toLowerCase().includes(text.toLowerCase()));
        if (!found) throw new Error(`No to-do matches "${text}".`);
        return { done: found };
      },
    });
    const second = { name: 'complete_todo', args: { text: 'the second one' } };
    const agent = await start({
      model: {
        engine: 'scripted',
        turns: [
          { toolCalls: [second] },
          { toolCalls: [second] },
          { toolCalls: [{ name: 'add_todo', args: { text: 'the second one' } }] },
          { toolCalls: [second] },
          { text: 'Done.' },
        ],
      },
      tools: [addTodo, completeTodo],
      storage: 'memory',
    });
    const { events } = await agent.send('mark the second one done');
    expect(responses(events).map((r) => r.code ?? 'ran')).toEqual(['tool-failed', 'repeated-call', 'ran', 'ran']);
    expect(responses(events)[1]!.error).toMatch(
      /failed with these same arguments just before \(.*No to-do matches "the second one".*\)\. Do not call it the same way again/s,
    );
    // The tool ran for the first try and after the add, not for the repeat.
    expect(tried).toEqual(['the second one', 'the second one']);
  });

  test('maxRepeatedCalls: 0 ends at the first repeat; Infinity runs repeats; nonsense is refused', async () => {
    const strict = todoList();
    const agent = await start({
      model: { engine: 'scripted', turns: [{ toolCalls: [milk] }, { toolCalls: [milk] }, { text: 'never' }] },
      tools: [strict.addTodo],
      storage: 'memory',
      maxRepeatedCalls: 0,
    });
    expect((await agent.send('Remember to buy milk')).endReason).toBe('repeated-call');
    expect(strict.items()).toEqual(['Buy milk']);

    const loose = todoList();
    const repeating = await start({
      model: { engine: 'scripted', turns: [{ toolCalls: [milk] }, { toolCalls: [milk] }, { text: 'Twice.' }] },
      tools: [loose.addTodo],
      storage: 'memory',
      maxRepeatedCalls: Infinity,
    });
    expect((await repeating.send('Remember to buy milk twice')).endReason).toBe('answer');
    expect(loose.items()).toEqual(['Buy milk', 'Buy milk']);

    await expect(
      start({ model: { engine: 'scripted', turns: [] }, storage: 'memory', maxRepeatedCalls: -1 }),
    ).rejects.toSatisfy((error) => error instanceof AgentError && error.code === 'invalid-options');
  });
});
