/**
 * The real model, Gemma 3 270M (Q4_K_M, the base model from PyPI), in the
 * agent's real worker through createAgent, on the README's to-do page: one
 * tool, add_todo. What it does with "Remember to buy milk", the KV cache across
 * that run's steps, and Stop. Loaded once for the file, one CPU thread.
 *
 * A base model continues the pattern it is shown, so the page's instructions
 * show requests answered in Gemma's ```tool_code syntax, each call's output,
 * and a reply after it.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createAgent, defineTool, z, type Agent, type AgentEvent } from '../../../src/index';
import type { ModelDelta } from '../../../src/model/engine';
import { hasRealModel, REAL_MODEL_URL } from '../../real-model';
import { pageTools } from './page-requests';

const call = (code: string) => `\`\`\`tool_code\n${code}\n\`\`\``;
const output = (json: string) => `\`\`\`tool_output\n${json}\n\`\`\``;
const instructions = [
  'You help with this page. Answer each request with one call of a tool, in a ```tool_code block; when its output comes, say in a few words what was done.',
  ['Request: Add eggs to my list', call('add_todo(text="eggs")'), output('{"id": "4"}'), 'Eggs are on your list.'].join(
    '\n',
  ),
  [
    'Request: Add bread and jam to my list',
    call('add_todo(text="bread")'),
    output('{"id": "5"}'),
    call('add_todo(text="jam")'),
    output('{"id": "6"}'),
    'Bread and jam are on your list.',
  ].join('\n'),
].join('\n\n');

/** The page's to-do list. */
const todos: string[] = [];
// The README's tool.
const addTodo = defineTool({
  name: 'add_todo',
  description: 'Add an item to the to-do list on this page.',
  parameters: z.object({ text: z.string().min(1) }),
  execute: async ({ text }) => {
    todos.push(text);
    return { id: String(todos.length) };
  },
});

const modelSteps = (events: AgentEvent[]) =>
  events.filter((event) => event.content?.role === 'model' && !event.partial);
const callsOf = (event: AgentEvent) =>
  (event.content?.parts ?? []).flatMap((part) => ('functionCall' in part ? [part.functionCall] : []));

describe.skipIf(!hasRealModel())('Gemma 3 270M (the real base model) on the README’s to-do page', () => {
  let agent: Agent;

  beforeAll(async () => {
    agent = await createAgent({
      // A call is 16 tokens; llama.cpp's n_predict bounds every step.
      model: { engine: 'wllama', url: REAL_MODEL_URL, completion: { n_predict: 24 } },
      instructions,
      tools: [addTodo],
      storage: 'memory',
      maxSteps: 3,
    });
  }, 120_000);
  afterAll(() => agent?.close());

  test(
    '"Remember to buy milk" runs add_todo with milk; the base model then repeats its call instead of answering, ' +
      'and each later step of that 3-step run prefills only its new tokens',
    async () => {
      todos.length = 0;
      const { events, text, endReason } = await agent.send('Remember to buy milk', { toolChoice: 'required' });
      const steps = modelSteps(events);
      // The page's tool ran with milk in its text: milk is on the visitor's list.
      expect(todos[0]).toMatch(/milk/i);
      // What the base model does next (temperature 0): after the tool's output it writes the same call again, each
      // step, until maxSteps; it never writes a reply. So the visitor sees the item listed once per step, no reply.
      expect(steps.map((step) => callsOf(step).map((c) => [c.name, c.args]))).toEqual(
        Array(3).fill([['add_todo', { text: todos[0] }]]),
      );
      expect(todos).toEqual([todos[0], todos[0], todos[0]]);
      expect(endReason).toBe('max-steps');
      expect(text).toBe('');
      // llama.cpp kept each step's whole prompt: a later step prefills only the last call's output and what follows.
      const usage = steps.map((step) => step.usage!);
      for (let i = 1; i < usage.length; i++) {
        expect(usage[i].cachedPromptTokens).toBeGreaterThanOrEqual(usage[i - 1].promptTokens);
        expect(usage[i].promptTokens - usage[i].cachedPromptTokens!).toBeLessThan(40);
      }
      console.info(
        `Gemma 3 270M, "Remember to buy milk", 3 steps (prompt tokens: cached + prefilled): ${usage.map((u) => `${u.cachedPromptTokens} + ${u.promptTokens - u.cachedPromptTokens!}`).join(', ')}`,
      );
    },
    180_000,
  );

  test('Stop ends decoding within a token, and the next run works', async () => {
    const controller = new AbortController();
    let after = 0;
    const seen: AgentEvent[] = [];
    // No call this run: the model writes text, streamed token by token.
    for await (const event of agent.run('Tell me about your day.', { signal: controller.signal, toolChoice: 'none' })) {
      seen.push(event);
      if (controller.signal.aborted && event.partial) after++;
      if (event.partial && !controller.signal.aborted) controller.abort();
    }
    expect(seen.some((event) => event.partial)).toBe(true);
    expect(seen.at(-1)).toMatchObject({ endReason: 'aborted' });
    expect(after).toBeLessThanOrEqual(1);
    // The next step decodes to its end: a call, read and valid.
    const deltas: ModelDelta[] = [];
    for await (const delta of agent.generate({
      messages: [
        { role: 'system', content: instructions },
        { role: 'user', content: 'Remember to buy bread' },
      ],
      tools: pageTools.filter((tool) => tool.name === 'add_todo'),
      toolChoice: 'required',
      sampling: { maxTokens: 24 },
    }))
      deltas.push(delta);
    expect(deltas.filter((delta) => delta.type === 'tool-call-error')).toEqual([]);
    expect(deltas.find((delta) => delta.type === 'tool-call')).toMatchObject({ call: { name: 'add_todo' } });
  }, 120_000);
});
