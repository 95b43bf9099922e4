// The decision layer's mechanics through a real worker, with an engine module that plays a small model by a script
// and can weigh a call (callChance) and go on with its turn (continueTurn). What a real model then does is measured
// on the real 0.5B in test/real-model/ and the evals; this holds each part to its rule.
import { describe, expect, test } from 'vitest';
import { defineTool, z, type AgentEvent } from '../../../src/index';
import { agentsClosedAfterEach, calls, responses, uniqueDb } from '../../page/helpers';

const start = agentsClosedAfterEach();
const here = import.meta.url;
const engineUrl = new URL('fixtures/deciding-engine.js', here).href;

const PRODUCTS = ['Kettle', 'Teapot', 'Grinder', 'Mug'];

function page() {
  const todos: string[] = [];
  const sent: unknown[] = [];
  const sorts: string[] = [];
  const addTodo = defineTool({
    name: 'add_todo',
    description: 'Add an item to the to-do list on this page.',
    parameters: z.object({ text: z.string().min(1) }),
    execute: ({ text }) => (todos.push(text), { id: `t${todos.length}` }),
  });
  const sortTable = defineTool({
    name: 'sort_table',
    description: 'Sort the products table by a column.',
    parameters: z.object({ column: z.enum(['name', 'price']), filter: z.string().optional() }),
    execute: ({ column, filter }) => {
      // As the demo's: a filter no product holds changes nothing, and the error quotes it.
      if (filter && !PRODUCTS.some((product) => product.toLowerCase().includes(filter.toLowerCase())))
        throw new Error(`No product holds "${filter}", so nothing was sorted. Leave filter out to sort them all.`);
      sorts.push(filter ? `${column} (${filter})` : column);
      return {
        sortedBy: column,
        shown: PRODUCTS.filter((product) => !filter || product.toLowerCase().includes(filter)),
      };
    },
  });
  const fillForm = defineTool({
    name: 'fill_form',
    description: 'Fill the contact form on this page.',
    parameters: z.object({ name: z.string(), email: z.email(), message: z.string().optional() }),
    execute: (args) => (sent.push(args), { filled: true }),
  });
  const completeTodo = defineTool({
    name: 'complete_todo',
    description: 'Mark the to-do whose text matches as done.',
    parameters: z.object({ text: z.string() }),
    execute: ({ text }) => {
      const found = todos.find((todo) => todo.toLowerCase().includes(text.toLowerCase()));
      if (!found) throw new Error(`No to-do matches "${text}". Existing: ${todos.join(', ')}.`);
      return { done: found };
    },
  });
  const listTodos = defineTool({
    name: 'list_todos',
    description: 'Read the to-do list on this page.',
    parameters: z.object({}),
    annotations: { readOnly: true },
    execute: () => ({ todos }),
  });
  return { todos, sent, sorts, tools: [addTodo, sortTable, fillForm, completeTodo, listTodos] };
}

async function agentFor(requests: Record<string, unknown>, decisions: unknown = true) {
  const { todos, sent, sorts, tools } = page();
  const agent = await start({
    model: { engine: 'module', url: engineUrl, options: { requests } },
    tools,
    decisions: decisions as boolean,
    // One round of calls, then words: what a small model gets (ModelInfo.toolRounds).
    maxToolRounds: 1,
    storage: 'memory',
    dbName: uniqueDb('decisions'),
  });
  return { agent, todos, sent, sorts };
}

const modelEvents = (events: AgentEvent[]) => events.filter((event) => event.content?.role === 'model');

describe('the decision layer, step by step', () => {
  test('a request no tool fits is answered in words when the model is unlikely to call; with the layer off it calls', async () => {
    const requests = {
      'that sounds good': { chance: 0.2, call: { name: 'add_todo', args: { text: 'sounds good' } }, words: 'Great!' },
      // A greeting or thanks alone is held to words whatever the model's odds (the 0.5B's were 0.78 on "hi!").
      'thanks!': { chance: 0.9, call: { name: 'add_todo', args: { text: 'thanks' } }, words: "You're welcome!" },
    };
    const on = await agentFor(requests);
    const answered = await on.agent.send('that sounds good');
    expect(answered.text).toBe('Great!');
    expect(calls(answered.events)).toEqual([]);
    expect(modelEvents(answered.events)[0]!.decision).toMatchObject({ held: 'answer', by: 'chance', chance: 0.2 });
    const thanked = await on.agent.send('thanks!');
    expect(thanked.text).toBe("You're welcome!");
    expect(modelEvents(thanked.events)[0]!.decision).toEqual({ held: 'answer', by: 'words' });
    expect(on.todos).toEqual([]);

    const off = await agentFor(requests, false);
    await off.agent.send('that sounds good');
    await off.agent.send('thanks!');
    expect(off.todos).toEqual(['sounds good', 'thanks']);
  });

  test('a question that refers back to what the tools touched ("what\'s left on it?") may read: only the tools that read are offered, and the odds decide', async () => {
    const { agent } = await agentFor({
      'put milk and bread on my list': {
        chance: 0.9,
        call: { name: 'add_todo', args: { text: 'milk' } },
        more: [{ name: 'add_todo', args: { text: 'bread' } }],
      },
      // The model would add a to-do if it could; offered only list_todos, it reads.
      "what's left on it?": {
        chance: 0.8,
        call: { name: 'add_todo', args: { text: 'left' } },
        named: { list_todos: { name: 'list_todos', args: {} } },
        after: 'Milk and bread.',
      },
      "what's 2+2?": { chance: 0.9, call: { name: 'add_todo', args: { text: '4' } }, words: '4' },
    });
    const before = await agent.send("what's left on it?");
    // Before any tool ran, it refers to nothing the page holds: words.
    expect(modelEvents(before.events)[0]!.decision).toEqual({ held: 'answer', by: 'words' });
    await agent.send('put milk and bread on my list');
    const { events, text } = await agent.send("what's left on it?");
    expect(modelEvents(events)[0]!.decision).toMatchObject({ held: 'call', by: 'chance', tools: ['list_todos'] });
    expect(calls(events).map((call) => call.name)).toEqual(['list_todos']);
    expect(text).toBe('Milk and bread.');
    // A question that refers to nothing stays words, whatever the odds.
    const sum = await agent.send("what's 2+2?");
    expect(modelEvents(sum.events)[0]!.decision).toEqual({ held: 'answer', by: 'words' });
  });

  test('a question that names what a tool that reads holds ("what\'s still on the list?") reads it, though the model would answer in words, and the answer names what was read', async () => {
    const { agent } = await agentFor({
      'put milk and bread on my list': {
        chance: 0.9,
        call: { name: 'add_todo', args: { text: 'milk' } },
        more: [{ name: 'add_todo', args: { text: 'bread' } }],
      },
      // The 0.5B's odds on it were 0.40, and its words "The tool has not completed its work.".
      "what's still on the list?": {
        chance: 0.4,
        words: 'The tool has not completed its work.',
        named: { list_todos: { name: 'list_todos', args: {} } },
        after: 'Milk and bread.',
      },
      // Having read, the 0.5B said nothing of what it read.
      'anything left on my list?': {
        chance: 0.41,
        words: 'No.',
        named: { list_todos: { name: 'list_todos', args: {} } },
        after: 'The tool successfully retrieved the to-do list.',
      },
    });
    const before = await agent.send("what's still on the list?");
    // Before any tool ran, the list holds nothing of the session's: the odds decide.
    expect(modelEvents(before.events)[0]!.decision).toMatchObject({ held: 'answer', by: 'chance' });
    await agent.send('put milk and bread on my list');
    const { events, text } = await agent.send("what's still on the list?");
    expect(modelEvents(events)[0]!.decision).toEqual({ held: 'call', by: 'reads', tools: ['list_todos'] });
    expect(calls(events).map((call) => call.name)).toEqual(['list_todos']);
    expect(text).toBe('Milk and bread.');
    // A reply that names nothing it read gives way to the reading.
    const read = await agent.send('anything left on my list?');
    expect(calls(read.events).map((call) => call.name)).toEqual(['list_todos']);
    expect(read.text).toBe('list_todos returned: milk, bread.');
  });

  test('a thing an earlier result held ("the teapot", a row a sort returned) points a call held by its odds to the tool that returned it', async () => {
    const { agent, sorts, todos } = await agentFor({
      'sort the products by name': { chance: 0.9, call: { name: 'sort_table', args: { column: 'name' } } },
      // Free to pick, the 0.5B added a to-do "Buy a new teapot."; offered the sort alone, it filters.
      'only show me the teapot': {
        chance: 0.9,
        call: { name: 'add_todo', args: { text: 'Buy a new teapot.' } },
        named: { sort_table: { name: 'sort_table', args: { column: 'name', filter: 'teapot' } } },
      },
    });
    const first = await agent.send('only show me the teapot');
    // Nothing has returned a teapot yet: any tool, as the model picks.
    expect(modelEvents(first.events)[0]!.decision).toMatchObject({ held: 'call', by: 'chance' });
    expect(modelEvents(first.events)[0]!.decision!.tools).toBeUndefined();
    expect(todos).toEqual(['Buy a new teapot.']);
    await agent.send('sort the products by name');
    const { events } = await agent.send('only show me the teapot');
    expect(modelEvents(events)[0]!.decision).toMatchObject({ held: 'call', by: 'chance', tools: ['sort_table'] });
    expect(sorts).toEqual(['name', 'name (teapot)']);
    expect(todos).toEqual(['Buy a new teapot.']);
  });

  test("a request that names a tool's action is held to a call of that tool, though the model would answer in words", async () => {
    const { agent } = await agentFor({
      'sort the products by price': {
        chance: 0.1,
        words: 'Sure, I can help you sort the products.',
        heldCall: { name: 'sort_table', args: { column: 'price' } },
        after: 'Sorted by price.',
      },
    });
    const { events, text } = await agent.send('sort the products by price');
    expect(calls(events).map((call) => [call.name, call.args])).toEqual([['sort_table', { column: 'price' }]]);
    expect(modelEvents(events)[0]!.decision).toEqual({ held: 'call', by: 'asked', tools: ['sort_table'] });
    expect(text).toBe('Sorted by price.');
  });

  test('a misspelt request is read as meant: "sortt the prodcts by price" is held to the sort, though it names no tool word as typed', async () => {
    const request = 'sortt the prodcts by price pls';
    const { agent } = await agentFor({
      [request]: {
        chance: 0.1,
        // The page suite's 0.5B on "sortt prodcts by prise, high to low": held to words, it claimed the sort.
        words: 'The products are sorted.',
        heldCall: { name: 'sort_table', args: { column: 'price' } },
        after: 'Sorted by price.',
      },
    });
    const { events, text } = await agent.send(request);
    expect(modelEvents(events)[0]!.decision).toEqual({ held: 'call', by: 'asked', tools: ['sort_table'] });
    expect(calls(events).map((call) => [call.name, call.args])).toEqual([['sort_table', { column: 'price' }]]);
    expect(text).toBe('Sorted by price.');
  });

  test("with toolsThatFit, a step held to a call by the model's odds is offered only the tools the request's words point to; by default, the model's pick runs", async () => {
    const request = 'the products by price, cheapest first';
    const script = {
      [request]: {
        chance: 0.9,
        // The 0.5B's kind of pick in the page suite: the tool its history had used.
        call: { name: 'complete_todo', args: { text: 'price' } },
        named: { sort_table: { name: 'sort_table', args: { column: 'price' } } },
        after: 'Sorted by price.',
      },
    };
    const on = await agentFor(script, { toolsThatFit: true });
    const sorted = await on.agent.send(request);
    expect(modelEvents(sorted.events)[0]!.decision).toMatchObject({
      held: 'call',
      by: 'chance',
      tools: ['sort_table'],
      chance: 0.9,
    });
    expect(calls(sorted.events).map((call) => [call.name, call.args])).toEqual([['sort_table', { column: 'price' }]]);

    const off = await agentFor(script);
    const picked = await off.agent.send(request);
    expect(calls(picked.events).map((call) => call.name)).toContain('complete_todo');
    expect(calls(picked.events).map((call) => call.name)).not.toContain('sort_table');
    expect(modelEvents(picked.events)[0]!.decision).toEqual({ held: 'call', by: 'chance', chance: 0.9, ms: 1 });
  });

  test('with givenValues, a value only one tool takes (an email address) is given for it: held to that tool though the model would answer in words; in a question, left to the model', async () => {
    const given = 'my name is Dana and my email is dana@wu.studio';
    const asked = 'is dana@wu.studio the email you have?';
    const fill = { name: 'fill_form', args: { name: 'Dana', email: 'dana@wu.studio' } };
    const { agent, sent } = await agentFor(
      {
        // The 0.5B's odds of a call were 0.00 on such a request in the page suite.
        [given]: { chance: 0, words: 'Sure, Dana.', heldCall: fill, after: 'The form is filled.' },
        [asked]: { chance: 0, words: 'Yes.', heldCall: fill },
      },
      { givenValues: true },
    );
    const filled = await agent.send(given);
    expect(modelEvents(filled.events)[0]!.decision).toEqual({ held: 'call', by: 'values', tools: ['fill_form'] });
    expect(sent).toEqual([{ name: 'Dana', email: 'dana@wu.studio' }]);
    const answered = await agent.send(asked);
    expect(answered.text).toBe('Yes.');
    expect(sent).toHaveLength(1);
    // The narrowing alone holds nothing to a call.
    const narrowing = await agentFor(
      { [given]: { chance: 0, words: 'Sure, Dana.', heldCall: fill } },
      { toolsThatFit: true },
    );
    expect((await narrowing.agent.send(given)).text).toBe('Sure, Dana.');
    expect(narrowing.sent).toEqual([]);
  });

  test("a sentence of the model's own words as a value (its refusal as the form's message) is refused, and the call written again once", async () => {
    const request = 'I am Dana, dana@wu.studio, and I want to ask whether the grinder is back in stock';
    const fixed = {
      name: 'fill_form',
      args: { name: 'Dana', email: 'dana@wu.studio', message: 'Is the grinder back in stock?' },
    };
    const { agent, sent } = await agentFor(
      {
        [request]: {
          chance: 0,
          // The 0.5B's message in the page suite.
          heldCall: {
            name: 'fill_form',
            args: { name: 'Dana', email: 'dana@wu.studio', message: "I'm sorry, but I can't assist with that." },
          },
          // Written again (after the refusal, or as its turn goes on): the visitor's words.
          retryCall: fixed,
          call: fixed,
          after: 'The form is filled.',
        },
      },
      { givenValues: true },
    );
    const { events } = await agent.send(request);
    const outcomes = responses(events).map((response) => (response.error ? response.code : 'ran'));
    expect(outcomes).toEqual(['ungrounded-value', 'ran']);
    expect(responses(events)[0]!.error).toMatch(/says nothing the user said/);
    expect(sent).toEqual([{ name: 'Dana', email: 'dana@wu.studio', message: 'Is the grinder back in stock?' }]);
  });

  test('"milk, eggs and bread": the turn goes on while the request holds items no call took, all in one turn', async () => {
    const { agent, todos } = await agentFor({
      'put milk, eggs and bread on my list': {
        chance: 0.9,
        call: { name: 'add_todo', args: { text: 'milk' } },
        // The fourth would take nothing new: it is not kept, and nothing more is asked.
        more: [
          { name: 'add_todo', args: { text: 'eggs' } },
          { name: 'add_todo', args: { text: 'bread' } },
        ],
      },
    });
    const { events } = await agent.send('put milk, eggs and bread on my list');
    expect(todos).toEqual(['milk', 'eggs', 'bread']);
    const [turn] = modelEvents(events);
    expect(calls([turn!]).map((call) => call.args)).toEqual([{ text: 'milk' }, { text: 'eggs' }, { text: 'bread' }]);
    expect(turn!.raw!.split('\n')).toHaveLength(3);
  });

  test('"milk, eggs and bread" packed in one to-do is refused with each item named; the retry, held to one of them, adds one each', async () => {
    const { agent, todos } = await agentFor({
      'Put milk, eggs and bread on my list': {
        chance: 0.9,
        // The 0.5B in the page suite: one to-do, "Milk, eggs, bread".
        call: { name: 'add_todo', args: { text: 'Milk, eggs, bread' } },
        // Told to call once for each, the 0.5B packed them again; held to one of the items, it writes one.
        retryCall: { name: 'add_todo', args: { text: 'Milk, eggs, bread' } },
        narrowedCall: { name: 'add_todo', args: { text: 'Milk' } },
        more: [
          { name: 'add_todo', args: { text: 'eggs' } },
          { name: 'add_todo', args: { text: 'bread' } },
        ],
        after: 'Added milk, eggs and bread.',
      },
    });
    const { events, text, calls: outcomes } = await agent.send('Put milk, eggs and bread on my list');
    expect(todos).toEqual(['Milk', 'eggs', 'bread']);
    const [refused] = responses(events);
    expect(refused).toMatchObject({
      code: 'several-in-one',
      error:
        'Not run: "Milk, eggs, bread" is 3 items in one add_todo call, and add_todo takes one. Call add_todo once for each: "Milk", "eggs", "bread".',
    });
    expect(outcomes.map((call) => call.outcome)).toEqual(['refused', 'ran', 'ran', 'ran']);
    expect(text).toBe('Added milk, eggs and bread.');
  });

  test("the request passed whole in one call: each item named without the request's own words", async () => {
    const whole = 'Put milk, eggs and bread on my list';
    const { agent } = await agentFor({
      // The real 0.5B in the long session of qwen-instruct.browser.test.ts.
      [whole]: { chance: 0.9, call: { name: 'add_todo', args: { text: whole } }, after: 'Added.' },
    });
    const { events } = await agent.send(whole);
    expect(responses(events)[0]!.error).toBe(
      `Not run: "${whole}" is 3 items in one add_todo call, and add_todo takes one. Call add_todo once for each: "milk", "eggs", "bread".`,
    );
  });

  test('the request passed whole, ending in a place the tool names: each item without the place', async () => {
    const whole = 'add flour and sugar to the shopping list';
    const { agent, todos } = await agentFor({
      // The page suite's 0.5B (held-out conversation "bakery"): the retry added the to-do "sugar to the shopping".
      [whole]: {
        chance: 0.9,
        call: { name: 'add_todo', args: { text: 'Add flour and sugar to the shopping list.' } },
        narrowedCall: { name: 'add_todo', args: { text: 'flour' } },
        more: [{ name: 'add_todo', args: { text: 'sugar' } }],
      },
    });
    const { events } = await agent.send(whole);
    expect(responses(events)[0]!.error).toBe(
      'Not run: "Add flour and sugar to the shopping list." is 2 items in one add_todo call, and add_todo takes one. Call add_todo once for each: "flour", "sugar".',
    );
    expect(todos).toEqual(['flour', 'sugar']);
  });

  test('packed with the typos mended and an item left out, it is still refused, and the item left out is named too', async () => {
    const request = 'ad tomatos, onoins and garlic to teh lsit';
    const { agent, todos } = await agentFor({
      [request]: {
        chance: 0.9,
        // The page suite's 0.5B: one to-do of two items, spelled right, and the tomatoes forgotten.
        call: { name: 'add_todo', args: { text: 'Onions and Garlic to the list' } },
        narrowedCall: { name: 'add_todo', args: { text: 'Onions' } },
        more: [
          { name: 'add_todo', args: { text: 'Garlic' } },
          { name: 'add_todo', args: { text: 'tomatos' } },
        ],
      },
    });
    const { events } = await agent.send(request);
    expect(responses(events)[0]!.error).toBe(
      'Not run: "Onions and Garlic to the list" is 2 items in one add_todo call, and add_todo takes one. Call add_todo once for each: "Onions", "Garlic", "tomatos".',
    );
    expect(todos).toEqual(['Onions', 'Garlic', 'tomatos']);
  });

  test('packed again on the retry, it runs: once a run; one thing asked, one text is never split', async () => {
    const packed = { name: 'add_todo', args: { text: 'Milk, eggs, bread' } };
    const again = await agentFor({
      'Put milk, eggs and bread on my list': { chance: 0.9, call: packed, retryCall: packed, after: 'Added.' },
    });
    await again.agent.send('Put milk, eggs and bread on my list');
    expect(again.todos).toEqual(['Milk, eggs, bread']);
    const one = await agentFor({
      'remember to buy milk': { chance: 0.9, call: { name: 'add_todo', args: { text: 'Buy milk, the oat one' } } },
    });
    await one.agent.send('remember to buy milk');
    expect(one.todos).toEqual(['Buy milk, the oat one']);
  });

  test('no more calls than the request lists items: "sort by price, lowest first" is one call, whatever the model would add', async () => {
    const { agent } = await agentFor({
      'sort the products by price, cheapest first': {
        chance: 0.9,
        call: { name: 'sort_table', args: { column: 'price' } },
        // The 0.5B went on with sort_table calls whose filter took "cheapest", then "first": each one a new word.
        more: [
          { name: 'sort_table', args: { column: 'price', filter: 'cheapest' } },
          { name: 'sort_table', args: { column: 'price', filter: 'soon' } },
        ],
      },
    });
    const { events } = await agent.send('sort the products by price, cheapest first');
    expect(calls(modelEvents(events)).map((call) => call.args)).toEqual([{ column: 'price' }]);
  });

  test('a turn over maxToolCallsPerStep first loses the calls its request did not ask for; what is left runs, and a turn still over it is refused whole', async () => {
    const chores = ['Washing dishes', 'Cleaning the kitchen', 'Washing the floors', 'Cleaning the house'];
    const more = [...chores, 'Washing the garage', 'Washing the laundry', 'Washing the toilet', 'Washing the kitchen'];
    const letters = 'abcdefghij'.split('');
    const { agent, todos } = await agentFor({
      // The page suite's 0.5B (held-out conversation "errands"): ten calls in one step, the run ended with none run
      // and an empty reply.
      'add dry cleaning': {
        chance: 0.9,
        call: { name: 'add_todo', args: { text: 'Dry cleaning' } },
        also: more.map((text) => ({ name: 'add_todo', args: { text } })),
        after: 'Added dry cleaning.',
      },
      [`add ${letters.join(', ')}`]: {
        chance: 0.9,
        call: { name: 'add_todo', args: { text: 'a' } },
        also: letters.slice(1).map((text) => ({ name: 'add_todo', args: { text } })),
      },
    });
    const { events, text, endReason } = await agent.send('add dry cleaning');
    expect(todos).toEqual(['Dry cleaning']);
    expect(responses(events).map((response) => response.code ?? 'ran')).toEqual([
      'ran',
      ...more.map(() => 'beyond-request'),
    ]);
    expect({ text, endReason }).toEqual({ text: 'Added dry cleaning.', endReason: 'answer' });
    // Ten things asked, ten calls: over the limit of 8, none runs.
    const flood = await agent.send(`add ${letters.join(', ')}`);
    expect(flood.endReason).toBe('max-tool-calls');
    expect(todos).toEqual(['Dry cleaning']);
  });

  test('a continuation that takes nothing new (the same call again) is not kept, and the turn ends', async () => {
    const { agent, todos } = await agentFor({
      'remember the milk and the soap': {
        chance: 0.9,
        call: { name: 'add_todo', args: { text: 'milk' } },
        more: [{ name: 'add_todo', args: { text: 'milk' } }],
      },
    });
    await agent.send('remember the milk and the soap');
    expect(todos).toEqual(['milk']);
  });

  test('a reply that claims an action no call did is decided again, held to a call of that tool', async () => {
    const { agent, todos } = await agentFor({
      'oh and eggs too': {
        chance: 0.2,
        words: "I've added eggs to your list.",
        heldCall: { name: 'add_todo', args: { text: 'eggs' } },
        after: 'Added eggs.',
      },
    });
    const { events, text } = await agent.send('oh and eggs too');
    expect(todos).toEqual(['eggs']);
    expect(text).toBe('Added eggs.');
    // The claim was never recorded as a reply; the step that replaced it says why it was held.
    const replies = modelEvents(events).flatMap((event) =>
      event.content!.parts.flatMap((part) => ('text' in part ? [part.text] : [])),
    );
    expect(replies).toEqual(['Added eggs.']);
    expect(modelEvents(events)[0]!.decision).toMatchObject({ held: 'call', by: 'claim', tools: ['add_todo'] });
    expect(modelEvents(events)[0]!.decision!.claimed).toBe("I've added eggs to your list.");
  });

  test('a question that asks for no action is never acted on: "did you sort it?" answered with a claim gets "nothing was done"', async () => {
    const { agent } = await agentFor({
      // The page suite's 0.5B: it answered "The to-do list was sorted…", and the claim's redo sorted the table.
      'did you sort it?': {
        chance: 0.2,
        words: 'The products table is sorted by price.',
        heldCall: { name: 'sort_table', args: { column: 'price' } },
      },
    });
    const { events, text, unperformedClaims } = await agent.send('did you sort it?');
    expect(calls(events)).toEqual([]);
    expect(text).toBe('Nothing was done: no tool ran for this request. Ask again if you want me to try.');
    expect(unperformedClaims).toEqual([{ sentence: 'The products table is sorted by price.', tools: ['sort_table'] }]);
  });

  test("a question about what was done is held to words, whatever the model's odds; one that also asks is held to the call", async () => {
    const { agent, todos } = await agentFor({
      // The page suite's 0.5B: odds 0.76, then add_todo("Bread, eggs, milk, bread, eggs, milk, …") to its token limit.
      'did you add my groceries?': {
        chance: 0.76,
        call: { name: 'add_todo', args: { text: 'Bread, eggs, milk' } },
        words: 'No, I have not added anything yet.',
      },
      "didn't you add milk? add it now": {
        chance: 0.2,
        words: 'Yes.',
        heldCall: { name: 'add_todo', args: { text: 'milk' } },
        after: 'Added milk.',
      },
    });
    const answered = await agent.send('did you add my groceries?');
    expect(answered.text).toBe('No, I have not added anything yet.');
    expect(modelEvents(answered.events)[0]!.decision).toEqual({ held: 'answer', by: 'question' });
    expect(todos).toEqual([]);
    const asked = await agent.send("didn't you add milk? add it now");
    expect(modelEvents(asked.events)[0]!.decision).toEqual({ held: 'call', by: 'asked', tools: ['add_todo'] });
    expect(todos).toEqual(['milk']);
  });

  test('a question about what was done is answered from the session\'s calls: "did you add the milk?" keeps its true "yes"', async () => {
    // The page suite's 0.5B: "Yes, both notes were saved." after two runs that saved them was replaced by "Nothing
    // was done", since no call of the question's own run had saved a note.
    const { agent } = await agentFor({
      'add milk': { chance: 0.9, call: { name: 'add_todo', args: { text: 'milk' } } },
      'did you add the milk?': { chance: 0.1, words: "Yes, I've added milk to your list." },
      'did you send the form?': { chance: 0.1, words: "Yes, I've filled the contact form." },
    });
    await agent.send('add milk');
    const asked = await agent.send('did you add the milk?');
    expect(asked.text).toBe("Yes, I've added milk to your list.");
    expect(asked.unperformedClaims).toBeUndefined();
    // A claim no call of the session backs is still replaced.
    const sent = await agent.send('did you send the form?');
    expect(sent.text).toBe('Nothing was done: no tool ran for this request. Ask again if you want me to try.');
  });

  test('"did you send it?" after the form was filled: "Yes, I sent it" claims what no tool does, and says so', async () => {
    // The page suite's 0.5B, in both arms: the demo's contact form is filled for the person to send, never sent.
    const { agent } = await agentFor({
      'fill the form for Priya, priya@nair.io: the kettle arrived broken': {
        chance: 0.9,
        call: {
          name: 'fill_form',
          args: { name: 'Priya', email: 'priya@nair.io', message: 'The kettle arrived broken.' },
        },
      },
      'did you send it?': { chance: 0.1, words: 'Yes, I sent the message to Priya Nair.' },
      'did you fill it in?': { chance: 0.1, words: "Yes, I've filled the contact form." },
    });
    await agent.send('fill the form for Priya, priya@nair.io: the kettle arrived broken');
    const sent = await agent.send('did you send it?');
    expect(sent.text).toBe('Nothing was sent: none of the tools here can send anything.');
    expect(sent.unperformedClaims).toEqual([
      { sentence: 'Yes, I sent the message to Priya Nair.', tools: [], beyond: { base: 'send', done: 'sent' } },
    ]);
    // What a call of the session did stays backed.
    expect((await agent.send('did you fill it in?')).text).toBe("Yes, I've filled the contact form.");
  });

  test('"what\'s 2+2" answered with a claim is a question: the claim is replaced, never made good by a call', async () => {
    // The page suite's 0.5B answered it "The tool added a note to the to-do list on this page.", and the claim's
    // redo added a note "2+2 equals 4." that nobody asked for.
    // A to-do added earlier in the session does not back it: the question asks nothing of the past.
    const { agent, todos } = await agentFor({
      'add milk': { chance: 0.9, call: { name: 'add_todo', args: { text: 'milk' } } },
      "what's 2+2": {
        chance: 0.2,
        words: "I've added 2+2 to your list.",
        heldCall: { name: 'add_todo', args: { text: '2+2 equals 4' } },
      },
    });
    await agent.send('add milk');
    const { events, text } = await agent.send("what's 2+2");
    expect(calls(events)).toEqual([]);
    expect(todos).toEqual(['milk']);
    expect(text).toBe('Nothing was done: no tool ran for this request. Ask again if you want me to try.');
  });

  test('a claim the run cannot make good is replaced by a plain "only what the calls did was done", and kept on the event and the result', async () => {
    const { agent, todos } = await agentFor({
      // After its one round the model may only answer, and it claims what it never did.
      'remember to tidy the shelf': {
        call: { name: 'add_todo', args: { text: 'tidy the shelf' } },
        after: 'The products table is sorted by price.',
      },
    });
    const { events, text, unperformedClaims } = await agent.send('remember to tidy the shelf');
    expect(todos).toEqual(['tidy the shelf']);
    // add_todo did run: the reply says so much, and no more.
    expect(text).toMatch(/^Only what the calls above did was done/);
    const claimed = [{ sentence: 'The products table is sorted by price.', tools: ['sort_table'] }];
    expect(modelEvents(events).at(-1)!.unperformedClaims).toEqual(claimed);
    expect(unperformedClaims).toEqual(claimed);
  });

  test('an address the visitor never gave is refused, the call is written again once, and the log keeps both', async () => {
    const { agent, sent } = await agentFor({
      'fill the contact form for Ana': {
        chance: 0.9,
        call: { name: 'fill_form', args: { name: 'Ana', email: 'john.doe@example.com' } },
        after: 'Please give me her email address.',
      },
    });
    const { events, text } = await agent.send('fill the contact form for Ana');
    expect(sent).toEqual([]);
    const refused = responses(events);
    expect(refused).toHaveLength(2);
    expect(refused.every((response) => response.code === 'ungrounded-value')).toBe(true);
    expect(refused[0]!.error).toContain('"john.doe@example.com"');
    // The retry was held to the same tool; after it the step could only answer.
    expect(modelEvents(events).map((event) => calls([event]).map((call) => call.name))).toEqual([
      ['fill_form'],
      ['fill_form'],
      [],
    ]);
    expect(text).toBe('Please give me her email address.');
  });

  test("a call its tool failed is written again once, with the tool's error to go by", async () => {
    const { agent } = await agentFor({
      'add milk': { chance: 0.9, call: { name: 'add_todo', args: { text: 'Buy milk' } } },
      'I got the oat milk, tick it off': {
        call: { name: 'complete_todo', args: { text: 'oat milk' } },
        retryCall: { name: 'complete_todo', args: { text: 'milk' } },
        after: 'Marked "Buy milk" as done.',
      },
    });
    await agent.send('add milk');
    const { events, text } = await agent.send('I got the oat milk, tick it off');
    expect(responses(events).map((response) => response.error ?? response.response)).toEqual([
      'Tool "complete_todo" failed: No to-do matches "oat milk". Existing: Buy milk.',
      { done: 'Buy milk' },
    ]);
    expect(text).toBe('Marked "Buy milk" as done.');
  });

  test('a sort the other way than the request asks ("from cheapest to priciest" sorted descending) is refused, and the retry is held to the order asked', async () => {
    const sorts: string[] = [];
    const sortTable = defineTool({
      name: 'sort_table',
      description: 'Sort the products table by a column.',
      parameters: z.object({
        column: z.enum(['name', 'price']),
        // As the demo's: the tool's own words say "Z to A", so a filter of those words is not a value no one said.
        descending: z.boolean().optional().describe('true for the highest first (most expensive, Z to A)'),
        filter: z.string().optional(),
      }),
      execute: ({ column, descending, filter }) => {
        if (filter) throw new Error(`No product holds "${filter}".`);
        sorts.push(`${column}${descending ? ' descending' : ''}`);
        return { ok: true };
      },
    });
    const request = 'sort the table from cheapest to priciest';
    // The page suite's 0.5B (held-out conversation "compare"), and again when told why; it also wrote the order as a
    // filter of its own.
    const again = { name: 'sort_table', args: { column: 'price', descending: true } };
    const withFilter = { name: 'sort_table', args: { column: 'price', descending: true, filter: 'Z to A' } };
    const agent = await start({
      model: {
        engine: 'module',
        url: engineUrl,
        options: {
          requests: {
            [request]: { chance: 0.9, call: again, retryCall: again, after: 'Sorted by price.' },
            'cheapest to priciest again': { chance: 0.9, call: withFilter, retryCall: withFilter, after: 'Sorted.' },
            'now the priciest first': { chance: 0.9, call: again, after: 'Sorted.' },
          },
        },
      },
      tools: [sortTable],
      decisions: true,
      maxToolRounds: 1,
      storage: 'memory',
      dbName: uniqueDb('decisions-order'),
    });
    const { events } = await agent.send(request);
    expect(responses(events).map((response) => (response.error ? response.code : 'ran'))).toEqual([
      'order-not-asked',
      'ran',
    ]);
    expect(responses(events)[0]!.error).toBe(
      'Not run: the request asks for the lowest first (ascending), and descending: true sorts the other way. Call sort_table with descending: false.',
    );
    expect(calls(modelEvents(events)).map((call) => call.args)).toEqual([
      again.args,
      { column: 'price', descending: false },
    ]);
    expect(sorts).toEqual(['price']);
    // Refused for its filter first, the call's retry holds the order asked too, and leaves out the filter that only
    // said an order.
    const filtered = await agent.send('cheapest to priciest again');
    expect(calls(modelEvents(filtered.events)).map((call) => call.args)).toEqual([
      withFilter.args,
      { column: 'price', descending: false },
    ]);
    expect(sorts).toEqual(['price', 'price']);
    // The order asked, as written, runs at once.
    await agent.send('now the priciest first');
    expect(sorts).toEqual(['price', 'price', 'price descending']);
  });

  test('an optional value no one asked for ("price < 100" as a filter of a plain sort) is refused, and the call written again once without it', async () => {
    const request = 'Could you sort the products by price, cheapest first please?';
    const { agent, sorts } = await agentFor({
      [request]: {
        chance: 0.9,
        // The page suite's 0.5B: the filter failed the sort ("No product holds "price < 100"").
        call: { name: 'sort_table', args: { column: 'price', filter: 'price < 100' } },
        // Told why, the 0.5B wrote the same call again; the retry's grammar leaves the filter out.
        retryCall: { name: 'sort_table', args: { column: 'price', filter: 'price < 100' } },
        narrowedCall: { name: 'sort_table', args: { column: 'price' } },
        after: 'Sorted by price.',
      },
      'only show me the tea things, sorted by name': {
        chance: 0.9,
        call: { name: 'sort_table', args: { column: 'name', filter: 'tea' } },
        after: 'Here is the teapot.',
      },
      'now sort them by price': {
        chance: 0.9,
        call: { name: 'sort_table', args: { column: 'price', filter: 'tea' } },
        narrowedCall: { name: 'sort_table', args: { column: 'price' } },
        after: 'Sorted by price.',
      },
    });
    const { events } = await agent.send(request);
    expect(responses(events).map((response) => (response.error ? response.code : 'ran'))).toEqual([
      'ungrounded-value',
      'ran',
    ]);
    expect(responses(events)[0]!.error).toMatch(
      /"price < 100", which the user did not ask for, and sort_table runs without it/,
    );
    expect(sorts).toEqual(['price']);
    // A filter in the visitor's words runs at once.
    await agent.send('only show me the tea things, sorted by name');
    expect(sorts).toEqual(['price', 'name (tea)']);
    // An earlier request's words are not asked again: "tea" as the filter of the next plain sort is refused (a
    // word a tool returned would be taken: the sort returned "Teapot", not "tea").
    const again = await agent.send('now sort them by price');
    expect(responses(again.events)[0]!.error).toMatch(/"tea", which the user did not ask for/);
    expect(sorts).toEqual(['price', 'name (tea)', 'price']);
  });

  test("an optional value the tool's error quotes (a filter no product holds) is left out of the retry; a required one stays", async () => {
    const { agent, sorts } = await agentFor({
      'sort the table by name z to a': {
        chance: 0.9,
        // The page suite's 0.5B took the visitor's "z to a" as a filter, and wrote the same call again when told why.
        call: { name: 'sort_table', args: { column: 'name', filter: 'Z to A' } },
        retryCall: { name: 'sort_table', args: { column: 'name', filter: 'Z to A' } },
        after: 'Sorted by name.',
      },
      'add milk': { chance: 0.9, call: { name: 'add_todo', args: { text: 'milk' } } },
      'the eggs are done': {
        chance: 0.9,
        call: { name: 'complete_todo', args: { text: 'eggs' } },
        retryCall: { name: 'complete_todo', args: { text: 'eggs' } },
      },
    });
    const { events, text } = await agent.send('sort the table by name z to a');
    expect(responses(events).map((response) => response.error ?? response.response)).toEqual([
      'Tool "sort_table" failed: No product holds "Z to A", so nothing was sorted. Leave filter out to sort them all.',
      { sortedBy: 'name', shown: PRODUCTS },
    ]);
    expect(sorts).toEqual(['name']);
    expect(text).toBe('Sorted by name.');
    // complete_todo's text is required: quoted by its error, it is still written, and the repeat is refused.
    await agent.send('add milk');
    const done = await agent.send('the eggs are done');
    expect(calls(modelEvents(done.events)).map((call) => call.args)).toEqual([{ text: 'eggs' }, { text: 'eggs' }]);
  });

  test('a needed value that only says the action ("Tick it off.") is refused before it runs, and the call written again once, held to the things the request names', async () => {
    const { agent } = await agentFor({
      'add send the agenda': { chance: 0.9, call: { name: 'add_todo', args: { text: 'send the agenda' } } },
      "agenda's done, tick it off": {
        // The page suite's 0.5B: complete_todo("Tick it off."), and told why, the same again; the retry's grammar
        // holds the text to the things the request names.
        call: { name: 'complete_todo', args: { text: 'Tick it off.' } },
        retryCall: { name: 'complete_todo', args: { text: 'Tick it off.' } },
        narrowedCall: { name: 'complete_todo', args: { text: 'agenda' } },
        after: 'Ticked off "send the agenda".',
      },
    });
    await agent.send('add send the agenda');
    const { events, text } = await agent.send("agenda's done, tick it off");
    expect(responses(events).map((response) => response.error ?? response.response)).toEqual([
      'Not run: text is "Tick it off.", which says what to do, not what to do it to. Write the user\'s words for the thing itself.',
      { done: 'send the agenda' },
    ]);
    expect(text).toBe('Ticked off "send the agenda".');
  });

  test('a turn that also takes the things of an earlier request ("the laundry is finished": the vacuum and the bike too) runs only what this request names', async () => {
    const { agent, todos } = await agentFor({
      'add laundry, vacuum, and fix the bike': {
        chance: 0.9,
        call: { name: 'add_todo', args: { text: 'laundry' } },
        more: [
          { name: 'add_todo', args: { text: 'vacuum' } },
          { name: 'add_todo', args: { text: 'fix the bike' } },
        ],
      },
      'the laundry is finished': {
        // The held-out set's 0.5B marked all three ("Finished laundry", "Finished vacuum", "Finished fix the bike").
        call: { name: 'complete_todo', args: { text: 'laundry' } },
        also: [
          { name: 'complete_todo', args: { text: 'vacuum' } },
          { name: 'complete_todo', args: { text: 'fix the bike' } },
        ],
      },
    });
    await agent.send('add laundry, vacuum, and fix the bike');
    expect(todos).toEqual(['laundry', 'vacuum', 'fix the bike']);
    const { events } = await agent.send('the laundry is finished');
    expect(responses(events).map((response) => response.error ?? response.response)).toEqual([
      { done: 'laundry' },
      'Not run: this request asks for {"text":"laundry"}, not for {"text":"vacuum"}, which it does not name. Call complete_todo only for what the user asks now.',
      'Not run: this request asks for {"text":"laundry"}, not for {"text":"fix the bike"}, which it does not name. Call complete_todo only for what the user asks now.',
    ]);
  });

  test('a request that goes on from the one before ("and pack the kitchen") is held to the tool that one ran, though the model would answer in words', async () => {
    const { agent, todos } = await agentFor({
      "add 'book a van'": { chance: 0.9, call: { name: 'add_todo', args: { text: 'book a van' } } },
      'and pack the kitchen': {
        chance: 0.2,
        words: 'Packing the kitchen is a good idea!',
        call: { name: 'add_todo', args: { text: 'pack the kitchen' } },
      },
    });
    await agent.send("add 'book a van'");
    const { events } = await agent.send('and pack the kitchen');
    expect(todos).toEqual(['book a van', 'pack the kitchen']);
    expect(modelEvents(events)[0]!.decision).toEqual({ held: 'call', by: 'goes-on', tools: ['add_todo'] });
  });

  test('"tell me a joke" after the tools have run is answered in words, though the model would call', async () => {
    const { agent, todos } = await agentFor({
      'add milk': { chance: 0.9, call: { name: 'add_todo', args: { text: 'milk' } } },
      'tell me a joke': {
        chance: 0.9,
        call: { name: 'add_todo', args: { text: 'joke' } },
        words: 'Why did the kettle whistle? It was steamed.',
      },
    });
    await agent.send('add milk');
    const { events, text } = await agent.send('tell me a joke');
    expect(todos).toEqual(['milk']);
    expect(modelEvents(events)[0]!.decision).toEqual({ held: 'answer', by: 'words' });
    expect(text).toBe('Why did the kettle whistle? It was steamed.');
  });

  test('an address the visitor gave runs at once', async () => {
    const { agent, sent } = await agentFor({
      'fill the contact form for Ana, ana@mail.example': {
        chance: 0.9,
        call: { name: 'fill_form', args: { name: 'Ana', email: 'ana@mail.example' } },
      },
    });
    await agent.send('fill the contact form for Ana, ana@mail.example');
    expect(sent).toEqual([{ name: 'Ana', email: 'ana@mail.example' }]);
  });
});
