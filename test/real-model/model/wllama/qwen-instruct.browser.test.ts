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
 *
 * The README's example runs once for the file (beforeAll): its answer is one test's, and its first step,
 * which read the whole prompt, is what the constant part read ahead (createAgent({ warmup: true })) is
 * measured against. The counts are llama.cpp's own (the step's usage: cache_n and prompt_n).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  createAgent,
  defineTool,
  z,
  type Agent,
  type AgentEvent,
  type AgentOptions,
  type RunResult,
  type WarmupResult,
} from '../../../../src/index';
import { hasInstructModel, INSTRUCT_MODEL_URL } from '../../real-model';
import { exchangeOf, todoPage, transcript, type Exchange } from '../../../model/wllama/todo-page';

const modelSteps = (events: AgentEvent[]) => events.filter((event) => event.content?.role === 'model');
/** Words for a person: not JSON, not markup, not empty. */
const WORDS = /^[\p{L}\p{N}]/u;

/** The README's tool, unchanged but for where it writes. */
function readmeTool(todos: string[] = []) {
  return defineTool({
    name: 'add_todo',
    description: 'Add an item to the to-do list on this page.',
    parameters: z.object({ text: z.string().min(1) }),
    execute: async ({ text }) => {
      todos.push(text);
      return { id: String(todos.length) };
    },
  });
}

/** The README's agent: its model, instructions and tool. */
const readmeOptions = (todos?: string[]): AgentOptions => ({
  model: { engine: 'wllama', url: INSTRUCT_MODEL_URL },
  instructions: 'You help with this page.',
  tools: [readmeTool(todos)],
  storage: 'memory',
});

/** The first model step: its prompt tokens, found in llama.cpp's cache and prefilled, and how long it took. */
function firstStep(events: AgentEvent[]) {
  const step = events.find((event) => event.content?.role === 'model' && !event.partial)!;
  const { promptTokens, cachedPromptTokens = 0 } = step.usage!;
  return {
    prompt: promptTokens,
    cached: cachedPromptTokens,
    prefilled: promptTokens - cachedPromptTokens,
    ms: step.timing!.ms,
  };
}

describe.skipIf(!hasInstructModel())(
  'Qwen2.5-Coder-0.5B-Instruct (the real instruct model) in the agent’s worker',
  () => {
    /** The README's example, run once: "Remember to buy milk" on an agent that read nothing ahead. */
    const readme = { todos: [] as string[], result: undefined as RunResult | undefined };

    beforeAll(async () => {
      const agent = await createAgent(readmeOptions(readme.todos));
      try {
        const t0 = performance.now();
        readme.result = await agent.send('Remember to buy milk');
        const { events, text } = readme.result;
        console.info(
          transcript('README to-do example', [
            exchangeOf('Remember to buy milk', events, (performance.now() - t0) / 1000, text),
          ]),
        );
      } finally {
        await agent.close();
      }
    }, 600_000);

    test('the README’s to-do example: add_todo with milk, then a reply in words that names milk', () => {
      const { text, endReason } = readme.result!;
      expect(readme.todos).toHaveLength(1);
      expect(readme.todos[0]).toMatch(/milk/i);
      expect(endReason).toBe('answer');
      expect(text).toMatch(WORDS);
      expect(text).toMatch(/milk/i);
    });

    test('without a warmup the first request prefills the whole prompt; after it, only its own tokens', async () => {
      const without = firstStep(readme.result!.events);
      expect(without.cached).toBe(0);

      // The README's agent again, reading ahead; each step writes one token (n_predict 1): what it answers is
      // the test above's business, this one reads the prompt.
      const t0 = performance.now();
      const warm = await createAgent({
        ...readmeOptions(),
        model: { engine: 'wllama', url: INSTRUCT_MODEL_URL, completion: { n_predict: 1 } },
        maxSteps: 1,
        warmup: true,
      });
      try {
        const read = await new Promise<WarmupResult>((resolve) =>
          warm.addEventListener('warmup', (event) => resolve((event as CustomEvent<WarmupResult>).detail), {
            once: true,
          }),
        );
        const loadedAndRead = performance.now() - t0;
        const withWarmup = firstStep((await warm.send('Remember to buy milk')).events);
        console.info(
          [
            `Qwen2.5-Coder 0.5B (${warm.info?.model.label}), "Remember to buy milk", README's to-do tool:`,
            `  without warmup: first step ${without.prompt} prompt tokens, ${without.cached} cached + ${without.prefilled} prefilled, ${(without.ms / 1000).toFixed(1)} s`,
            `  warmup: ${read.promptTokens} tokens read ahead (${read.prefilledTokens} prefilled, ${read.cachedTokens} cached) in ${(read.ms / 1000).toFixed(1)} s; load + warmup ${(loadedAndRead / 1000).toFixed(1)} s`,
            `  with warmup: first step ${withWarmup.prompt} prompt tokens, ${withWarmup.cached} cached + ${withWarmup.prefilled} prefilled, ${(withWarmup.ms / 1000).toFixed(1)} s (1 token written)`,
          ].join('\n'),
        );
        expect(read).toMatchObject({ status: 'read', cachedTokens: 0 });
        expect(read.prefilledTokens).toBe(read.promptTokens);
        // The same prompt, token for token: the prefix read ahead is exactly its start.
        expect(withWarmup.prompt).toBe(without.prompt);
        expect(withWarmup.cached).toBe(read.promptTokens);
        // "Remember to buy milk<|im_end|>\n<|im_start|>assistant\n": the request's own tokens only.
        expect(withWarmup.prefilled).toBe(without.prompt - read.promptTokens);
        expect(withWarmup.prefilled).toBeLessThan(16);
      } finally {
        await warm.close();
      }
    }, 900_000);

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
      async function ask(request: string, { packed = false } = {}): Promise<Exchange> {
        const t0 = performance.now();
        const { events, text, endReason } = await agent.send(request);
        const exchange = exchangeOf(request, events, (performance.now() - t0) / 1000, text);
        exchanges.push(exchange);
        expect(endReason, `${request}: ${transcript('', [exchange])}`).toBe('answer');
        expect(text, request).toMatch(WORDS);
        const made = exchange.calls.map((call) => JSON.stringify([call.name, call.args]));
        expect(new Set(made).size, `${request}: a call made twice`).toBe(made.length);
        // `packed`: a call that packed the request's items in one may be refused, its retry held to one each.
        expect(
          exchange.calls.every((call) => !call.error || (packed && call.error.includes(' items in one '))),
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

      test('"Put milk, eggs and bread on my list": one to-do each', async () => {
        const before = page.todos.length;
        await ask('Put milk, eggs and bread on my list', { packed: true });
        const added = page.todos.slice(before).map((todo) => todo.text);
        expect(added, JSON.stringify(added)).toEqual([
          expect.stringMatching(/milk/i),
          expect.stringMatching(/egg/i),
          expect.stringMatching(/bread/i),
        ]);
      }, 900_000);
    });
  },
);
