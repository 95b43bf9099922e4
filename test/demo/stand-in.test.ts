// The demo's stand-in engine (demo/engine/): which requests it understands, and what it says afterwards.
import { describe, expect, test } from 'vitest';
import createStandIn from '../../demo/engine/stand-in';
import { understand } from '../../demo/engine/understand';
import type { ChatMessage, ModelDelta, ModelRequest } from '../../src/model/engine';

const calls = (text: string) => {
  const found = understand(text);
  return found.kind === 'calls' ? found.calls.map((call) => [call.name, call.args]) : found.text;
};

describe('the stand-in understands the sample page’s requests', () => {
  test.each([
    ['add buy milk', [['add_todo', { text: 'Buy milk' }]]],
    [
      'Remember to buy milk and to call Ana',
      [
        ['add_todo', { text: 'Buy milk' }],
        ['add_todo', { text: 'Call Ana' }],
      ],
    ],
    [
      'add eggs, bread and butter to my list',
      [
        ['add_todo', { text: 'Eggs' }],
        ['add_todo', { text: 'Bread' }],
        ['add_todo', { text: 'Butter' }],
      ],
    ],
    ['mark milk done', [['complete_todo', { text: 'milk' }]]],
    ['Buy milk is done.', [['complete_todo', { text: 'buy milk' }]]],
    ['clear the list', [['clear_todos', {}]]],
    ['Delete all my to-dos', [['clear_todos', {}]]],
    ['sort products by price', [['sort_table', { column: 'price', descending: false }]]],
    ['Sort the products by price, most expensive first', [['sort_table', { column: 'price', descending: true }]]],
    ['order by stock, highest first', [['sort_table', { column: 'stock', descending: true }]]],
    [
      'note: call the plumber about the sink',
      [['add_note', { title: 'Call the plumber about the sink', body: 'Call the plumber about the sink' }]],
    ],
    [
      'Write a note about tomorrow’s meeting',
      [['add_note', { title: 'Tomorrow’s meeting', body: 'Tomorrow’s meeting' }]],
    ],
    [
      'fill the contact form for Ana',
      [
        [
          'fill_form',
          { name: 'Ana', email: 'ana@example.org', message: 'Hello Ana, I would like to get in touch. Best wishes' },
        ],
      ],
    ],
    [
      'Fill the contact form for Ana Lima saying see you at 10',
      [['fill_form', { name: 'Ana Lima', email: 'ana@example.org', message: 'See you at 10' }]],
    ],
    ['what’s on my list?', [['list_todos', {}]]],
    ['Which to-dos are open?', [['list_todos', {}]]],
  ])('“%s”', (text, expected) => {
    expect(calls(text)).toEqual(expected);
  });

  test('a greeting is answered with what it is and what it understands, and anything else honestly', () => {
    expect(calls('Hello! What can you do?')).toMatch(/^Hello! This is demo mode: no AI model is running/);
    expect(calls('hello?')).toMatch(/demo mode/);
    expect(calls('What is the capital of France?')).toMatch(
      /^Without a local model I only understand requests about this page’s to-dos, notes, products and form\./,
    );
  });
});

const tools = ['add_todo', 'complete_todo', 'list_todos', 'clear_todos', 'add_note', 'sort_table', 'fill_form'].map(
  (name) => ({ name, description: name, parameters: { type: 'object' } }),
) as unknown as ModelRequest['tools'];

async function generate(messages: ChatMessage[], signal?: AbortSignal) {
  const deltas: ModelDelta[] = [];
  for await (const delta of createStandIn({ tokenDelayMs: 0 }).generate({ messages, tools }, signal))
    deltas.push(delta);
  const text = deltas.map((delta) => (delta.type === 'text' ? delta.text : '')).join('');
  return { deltas, text };
}

describe('the stand-in as an engine', () => {
  test('it emits tool-call deltas for a request, after its reasoning, each call named first as a model stream names it', async () => {
    const { deltas } = await generate([{ role: 'user', content: 'add buy milk' }]);
    const types = deltas.map((delta) => delta.type);
    expect(types.slice(types.indexOf('tool-call'))).toEqual(['tool-call', 'finish']);
    expect(deltas[types.indexOf('tool-call') - 1]).toEqual({ type: 'tool-call-start', name: 'add_todo' });
    expect(new Set(types.slice(0, types.indexOf('tool-call') - 1))).toEqual(new Set(['reasoning']));
    expect(deltas.at(-2)).toEqual({ type: 'tool-call', call: { name: 'add_todo', args: { text: 'Buy milk' } } });
  });

  const asked = (name: string, args: unknown): ChatMessage[] => [
    { role: 'user', content: 'do it' },
    { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name, args }] },
  ];

  test('after the tools answered, it answers from their results', async () => {
    const listed = await generate([
      ...asked('list_todos', {}),
      {
        role: 'tool',
        toolCallId: 'c1',
        name: 'list_todos',
        content: '[{"text":"Buy milk","done":false},{"text":"Call Ana","done":true}]',
      },
    ]);
    expect(listed.text).toBe('Open: “Buy milk”. Done: “Call Ana”.');
    const sorted = await generate([
      ...asked('sort_table', { column: 'price', descending: true }),
      { role: 'tool', toolCallId: 'c1', name: 'sort_table', content: '{"order":["Grinder","Kettle"]}' },
    ]);
    expect(sorted.text).toBe('Sorted the products by price, highest first: Grinder, Kettle.');
  });

  test('after a denial it says nothing changed, and after a reload that the call did not run', async () => {
    const denied = await generate([
      ...asked('clear_todos', {}),
      {
        role: 'tool',
        toolCallId: 'c1',
        name: 'clear_todos',
        content: 'Error: The user rejected this call. Do not retry it.',
      },
    ]);
    expect(denied.text).toBe('I did not run clear_todos: you chose not to allow it, so nothing changed.');
    const reloaded = await generate([
      ...asked('clear_todos', {}),
      { role: 'tool', toolCallId: 'c1', name: 'clear_todos', content: 'Error: interrupted' },
    ]);
    expect(reloaded.text).toBe('clear_todos was not run because the page was reloaded.');
  });

  test('a to-do it cannot find is said plainly, with what the list holds', async () => {
    const missing = await generate([
      ...asked('complete_todo', { text: 'coffee' }),
      {
        role: 'tool',
        toolCallId: 'c1',
        name: 'complete_todo',
        content: 'Error: Tool "complete_todo" failed: No to-do matches "coffee". The to-dos are: Buy milk, Call Ana.',
      },
    ]);
    expect(missing.text).toBe('I could not find a to-do matching “coffee”. Your list has: Buy milk, Call Ana.');
  });

  test('Stop ends the stream where it is', async () => {
    const controller = new AbortController();
    const deltas: ModelDelta[] = [];
    for await (const delta of createStandIn({ tokenDelayMs: 0 }).generate(
      { messages: [{ role: 'user', content: 'hello' }], tools },
      controller.signal,
    )) {
      deltas.push(delta);
      if (deltas.filter((d) => d.type === 'text').length === 3) controller.abort();
    }
    expect(deltas.filter((d) => d.type === 'text')).toHaveLength(3);
    expect(deltas.at(-1)).toMatchObject({ type: 'finish', reason: 'abort' });
  });
});
