// docs/tool-design.md's complete_todo, run as written (its import made this checkout's), with a scripted model
// that passes on the visitor's words the way a small one does: the item meant is marked done, and words that
// fit two items or none are answered with a message the model can repeat, nothing marked.
import { afterEach, expect, test } from 'vitest';
import guide from '../../docs/tool-design.md?raw';
import type { Tool } from '../../src/index';
import { agentsClosedAfterEach, responses, uniqueDb } from '../page/helpers';

const start = agentsClosedAfterEach();

afterEach(() => document.querySelector('#todos')?.remove());

/** The guide's first js block, importing this checkout's src, as a module of its own. */
async function guideTool(): Promise<Tool> {
  const block = /```js\n([\s\S]*?)```/.exec(guide)![1]!;
  const code = `${block.replace("from 'inpage-agent'", `from '${location.origin}/src/index.ts'`)}\nexport { completeTodo };\n`;
  const url = URL.createObjectURL(new Blob([code], { type: 'text/javascript' }));
  return ((await import(/* @vite-ignore */ url)) as { completeTodo: Tool }).completeTodo;
}

test('the guide’s complete_todo finds the item the visitor means from their words, and says what it could not', async () => {
  const list = document.createElement('ul');
  list.id = 'todos';
  list.innerHTML = '<li>Buy milk</li><li>Walk the dog</li><li>Milk the cow</li><li>Call Ana</li>';
  document.body.append(list);
  const calls = ['the dog one', 'the last one', 'mlik', 'coffee'].map((text) => ({
    toolCalls: [{ name: 'complete_todo', args: { text } }],
  }));
  const agent = await start({
    dbName: uniqueDb('tool-design'),
    model: { engine: 'scripted', turns: calls.flatMap((turn) => [turn, { text: 'OK.' }]) },
    tools: [await guideTool()],
  });
  const answers = [];
  for (const words of ['mark the dog one done', 'the last one is done', 'I bought the mlik', 'coffee is done'])
    answers.push(responses((await agent.send(words)).events)[0]!);
  expect(answers.map((answer) => answer.error ?? answer.response)).toEqual([
    { done: 'Walk the dog' },
    { done: 'Call Ana' },
    'Tool "complete_todo" failed: "mlik" could be any of: Buy milk, Milk the cow. Ask which one.',
    'Tool "complete_todo" failed: No to-do matches "coffee". The to-dos are: Buy milk, Walk the dog, Milk the cow, Call Ana.',
  ]);
  expect([...list.querySelectorAll('li.done')].map((item) => item.textContent)).toEqual(['Walk the dog', 'Call Ana']);
});
