/**
 * A model that babbles must not freeze the worker (issue #11, section 3):
 * megabyte outputs through the real path (a scripted `{ raw }` turn read by
 * the same stream and readers as a web-llm model's text, in a real worker via
 * createAgent). A quadratic pass anywhere would run for minutes here and
 * time the test out; a linear one reads each in about a second.
 */
import { describe, expect, test } from 'vitest';
import { defineTool, z } from '../../src/index';
import { agentsClosedAfterEach, calls, responses } from '../page/helpers';

const start = agentsClosedAfterEach();
const MB = 1024 * 1024;

function recorder(ran: string[]) {
  return defineTool({
    name: 'add_todo',
    description: 'Add an item to the to-do list.',
    parameters: z.object({ text: z.string() }),
    execute: ({ text }) => {
      ran.push(text);
      return 'added';
    },
  });
}

describe('megabyte outputs finish a run', () => {
  test('1 MB of plain text is shown whole', async () => {
    const text = 'All work and no play makes a dull model. '.repeat(MB / 41);
    const agent = await start({ model: { engine: 'scripted', turns: [{ raw: text }] }, storage: 'memory' });
    const result = await agent.send('talk');
    expect(result.text).toBe(text);
  });

  test('256 KB of "[]," after <tool_call> runs nothing and is answered as cut off', async () => {
    const ran: string[] = [];
    const agent = await start({
      model: {
        engine: 'scripted',
        turns: [{ raw: `<tool_call>${'[],'.repeat((256 * 1024) / 3)}` }, { text: 'Sorry, I will stop.' }],
        // The babble is replayed in the next step as the model wrote it; this window holds it.
        contextWindow: 1_000_000,
      },
      tools: [recorder(ran)],
      storage: 'memory',
    });
    const { events, text } = await agent.send('add something');
    expect(ran).toEqual([]);
    expect(responses(events)[0]?.error).toMatch(/cut off/);
    expect(text).toBe('Sorry, I will stop.');
  });

  test('128 KB of <|im_end|> after an answer leaves just the answer', async () => {
    const agent = await start({
      model: { engine: 'scripted', turns: [{ raw: `Done.${'<|im_end|>'.repeat((128 * 1024) / 10)}` }] },
      storage: 'memory',
    });
    expect((await agent.send('finish')).text).toBe('Done.');
  });

  test('a call after 1 MB of prose full of near-markers still runs, exactly once', async () => {
    const ran: string[] = [];
    const prose = 'Notes on functools, <b>tags</b>, [links], {braces} and `code`. '.repeat(MB / 64);
    const agent = await start({
      model: {
        engine: 'scripted',
        turns: [
          { raw: `${prose}<tool_call>\n{"name": "add_todo", "arguments": {"text": "milk"}}\n</tool_call>` },
          { text: 'Added.' },
        ],
      },
      tools: [recorder(ran)],
      storage: 'memory',
    });
    const { events } = await agent.send('add milk');
    expect(ran).toEqual(['milk']);
    expect(calls(events).map((call) => call.name)).toEqual(['add_todo']);
  });
});
