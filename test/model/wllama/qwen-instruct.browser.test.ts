/**
 * The real instruction-tuned model, Qwen2.5-Coder-0.5B-Instruct (Q4_K_M GGUF from PyPI), in the agent's
 * real worker through createAgent, as a visitor meets it: each request gets the right call with the right
 * arguments, then a reply in words; a greeting gets words and no call; nothing is called twice.
 *
 * Before this wave the same model, in our own markup, looped (add_todo with "required": ["text"] copied
 * from the schema, twice, then list_todos twice, reply "}"), called a tool named "hello" and echoed
 * results ({"ok":true}) as answers. What it does now comes from its own chat template (jinja-prompt.ts),
 * the grammar (a call, tagged or bare, or words: never JSON that is not a call), one round of calls for a
 * model this small (then it is told to answer), and the repeat guard. It decodes a few tokens a second on
 * one CPU thread here, so the sample is small and the timeouts generous.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createAgent, defineTool, z, type Agent, type AgentEvent } from '../../../src/index';
import { hasInstructModel, INSTRUCT_MODEL_URL } from '../../real-model';
import { exchangeOf, todoPage, transcript, type Exchange } from './todo-page';

const modelSteps = (events: AgentEvent[]) => events.filter((event) => event.content?.role === 'model');
/** Words for a person: not JSON, not markup, not empty. */
const WORDS = /^[\p{L}\p{N}]/u;

describe.skipIf(!hasInstructModel())(
  'Qwen2.5-Coder-0.5B-Instruct (the real instruct model) in the agent’s worker',
  () => {
    test('the README’s to-do example: add_todo with milk, then a reply in words that names milk', async () => {
      const todos: string[] = [];
      // The README's tool, unchanged but for where it writes.
      const addTodo = defineTool({
        name: 'add_todo',
        description: 'Add an item to the to-do list on this page.',
        parameters: z.object({ text: z.string().min(1) }),
        execute: async ({ text }) => {
          todos.push(text);
          return { id: String(todos.length) };
        },
      });
      const agent = await createAgent({
        model: { engine: 'wllama', url: INSTRUCT_MODEL_URL },
        instructions: 'You help with this page.',
        tools: [addTodo],
        storage: 'memory',
      });
      try {
        const t0 = performance.now();
        const { events, text, endReason } = await agent.send('Remember to buy milk');
        console.info(
          transcript('README to-do example', [
            exchangeOf('Remember to buy milk', events, (performance.now() - t0) / 1000, text),
          ]),
        );
        expect(todos).toHaveLength(1);
        expect(todos[0]).toMatch(/milk/i);
        expect(endReason).toBe('answer');
        expect(text).toMatch(WORDS);
        expect(text).toMatch(/milk/i);
      } finally {
        await agent.close();
      }
    }, 600_000);

    describe('a conversation on a page with four tools', () => {
      const { page, tools } = todoPage();
      let agent: Agent;
      const exchanges: Exchange[] = [];

      beforeAll(async () => {
        agent = await createAgent({
          model: { engine: 'wllama', url: INSTRUCT_MODEL_URL },
          instructions: 'You help the visitor with this page.',
          tools,
          storage: 'memory',
          maxSteps: 4,
        });
      }, 300_000);
      afterAll(async () => {
        console.info(transcript('Qwen2.5-Coder-0.5B-Instruct, one session', exchanges));
        await agent?.close();
      });

      /** Sends a request; checks what every request owes the visitor: a reply in words, no call made twice, a prompt that extends the last. */
      async function ask(request: string): Promise<Exchange> {
        const t0 = performance.now();
        const { events, text, endReason } = await agent.send(request);
        const exchange = exchangeOf(request, events, (performance.now() - t0) / 1000, text);
        exchanges.push(exchange);
        expect(endReason, `${request}: ${transcript('', [exchange])}`).toBe('answer');
        expect(text, request).toMatch(WORDS);
        const made = exchange.calls.map((call) => JSON.stringify([call.name, call.args]));
        expect(new Set(made).size, `${request}: a call made twice`).toBe(made.length);
        expect(
          exchange.calls.every((call) => !call.error),
          `${request}: ${JSON.stringify(exchange.calls)}`,
        ).toBe(true);
        // llama.cpp kept each step's prompt: the next step read it from its cache.
        const usage = modelSteps(events).map((step) => step.usage!);
        for (let i = 1; i < usage.length; i++)
          expect(usage[i]!.cachedPromptTokens).toBeGreaterThanOrEqual(usage[i - 1]!.promptTokens);
        return exchange;
      }

      test('"Remember to buy milk": add_todo with milk, then words', async () => {
        const { calls } = await ask('Remember to buy milk');
        expect(calls.map((call) => call.name)).toEqual(['add_todo']);
        expect(page.todos.map((todo) => todo.text)).toEqual([expect.stringMatching(/milk/i)]);
      }, 600_000);

      test('"hello, who are you?": words, and no call', async () => {
        const { calls } = await ask('hello, who are you?');
        expect(calls).toEqual([]);
      }, 600_000);

      test('"Also add call the bank to my list": add_todo with the bank', async () => {
        const { calls } = await ask('Also add call the bank to my list');
        expect(calls.map((call) => call.name)).toEqual(['add_todo']);
        expect(page.todos.at(-1)?.text).toMatch(/bank/i);
      }, 600_000);

      test('"Mark the milk as done": complete_todo on the milk', async () => {
        const { calls } = await ask('Mark the milk as done');
        expect(calls.map((call) => call.name)).toEqual(['complete_todo']);
        expect(page.todos.find((todo) => /milk/i.test(todo.text))?.done).toBe(true);
      }, 600_000);

      test('"Switch to dark mode please": set_theme dark', async () => {
        const { calls } = await ask('Switch to dark mode please');
        expect(calls).toEqual([{ name: 'set_theme', args: { mode: 'dark' } }]);
        expect(page.theme).toBe('dark');
      }, 600_000);
    });
  },
);
