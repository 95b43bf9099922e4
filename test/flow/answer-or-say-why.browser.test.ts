// A run ends in words, in a call the tool choice asked for, or in an AgentError that says why: never in an
// empty answer. A random-weight GGUF without a chat template, under toolChoice 'required' and maxSteps 1,
// ended 3 runs of 3 with an empty model event (no call, no text, no error). And a call to a tool the page
// does not have is never recorded as that tool: Qwen2.5-Coder 0.5B answered "hello" with a call to "hello".
import { describe, expect, test } from 'vitest';
import { defineTool, z } from '../../src/index';
import { agentsClosedAfterEach, calls, responses, todoList } from '../page/helpers';

const start = agentsClosedAfterEach();

describe('how a run that calls nothing ends', () => {
  test("toolChoice 'required' and a model that answers in words: an AgentError that says a call was due and what it wrote", async () => {
    const { addTodo } = todoList();
    const agent = await start({
      model: { engine: 'scripted', turns: [{ text: 'Sure, milk it is.' }] },
      tools: [addTodo],
      storage: 'memory',
      toolChoice: 'required',
    });
    const { endReason, error, text } = await agent.send('Remember to buy milk');
    expect(endReason).toBe('error');
    expect(error).toMatchObject({ code: 'model-failed' });
    expect(error!.message).toMatch(/had to call a tool \(toolChoice 'required'\).*"Sure, milk it is\."/);
    expect(text).toBe('Sure, milk it is.');
  });

  test('a model that writes nothing at all: the run says so instead of ending on an empty answer', async () => {
    const agent = await start({
      model: { engine: 'scripted', turns: [{ text: '  ' }] },
      storage: 'memory',
    });
    const { endReason, error } = await agent.send('hello');
    expect(endReason).toBe('error');
    expect(error!.message).toMatch(/without a word or a call/);
  });

  test('a random-weight GGUF without a chat template, toolChoice required, one step: a call, or an error saying why', async () => {
    const notes: string[] = [];
    const addNote = defineTool({
      name: 'add_note',
      description: 'Write a note on this page.',
      parameters: z.object({ text: z.string() }),
      execute: ({ text }) => void notes.push(text),
    });
    const agent = await start({
      model: {
        engine: 'wllama',
        url: '/models/tiny-gemma2-prose.gguf',
        toolFormat: 'gemma-tool-code',
        contextWindow: 2048,
        temperature: 1,
        completion: { n_predict: 48 },
      },
      tools: [addNote],
      storage: 'memory',
      toolChoice: 'required',
      maxSteps: 1,
    });
    for (let run = 0; run < 3; run++) {
      const { events, endReason, error } = await agent.send(`Note number ${run}`);
      const made = calls(events);
      if (made.length && responses(events).some((r) => !r.error)) continue; // a call that ran
      expect(error, `run ${run} ended ${endReason} with no call and no error`).toBeDefined();
      expect(error!.message.length).toBeGreaterThan(20);
    }
  }, 120_000);

  test('a call to a tool the page does not have is recorded under our name, never as that tool, and the model is told which exist', async () => {
    const { addTodo } = todoList();
    const agent = await start({
      model: {
        engine: 'scripted',
        turns: [
          { raw: '<tool_call>\n{"name": "hello", "arguments": {}}\n</tool_call>' },
          { text: 'Hello! I can keep your list.' },
        ],
      },
      tools: [addTodo],
      storage: 'memory',
    });
    const { events, text } = await agent.send('hello, who are you?');
    expect(calls(events).map((call) => call.name)).toEqual(['unreadable_tool_call']);
    expect(responses(events)[0]!.error).toMatch(/no tool named "hello".*add_todo/);
    expect(text).toBe('Hello! I can keep your list.');
  });
});
