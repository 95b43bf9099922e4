/**
 * The real model, Gemma 3 270M (Q4_K_M, the base model from PyPI), in the
 * agent's real worker through createAgent, loaded once for the file (one CPU
 * thread; it decodes a few tokens a second here, so every step is short, and
 * the timeouts are generous only because the machine may be shared):
 * - on the README's to-do page (one tool, add_todo): what it does with
 *   "Remember to buy milk", the KV cache across that run's steps, and Stop;
 * - one page request for each of five page tools, each one step of the
 *   agent's model (agent.generate: the family's prompt and grammar, llama.cpp's
 *   cache of the shared instructions). How many of all twenty page requests it
 *   answers with the right tool and arguments is a figure, measured by
 *   `npm run bench -- --model=gemma` (bench/wllama.bench.ts).
 *
 * A base model continues the pattern it is shown, so the instructions show
 * requests answered in Gemma's ```tool_code syntax (and, on the to-do page,
 * each call's output and a reply after it).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createAgent, defineTool, z, type Agent, type AgentEvent } from '../../../../src/index';
import type { ChatMessage, ModelDelta } from '../../../../src/model/engine';
import { hasRealModel, REAL_MODEL_URL } from '../../real-model';
import { pageInstructions, pageRequests, pageTools, score, type Score } from '../../../model/wllama/page-requests';

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

/** The first of the page requests for each tool: every tool's schema, one step each. */
const onePerTool = pageTools.map((tool) => pageRequests.find((request) => request.tool === tool.name)!);

const modelSteps = (events: AgentEvent[]) =>
  events.filter((event) => event.content?.role === 'model' && !event.partial);
const callsOf = (event: AgentEvent) =>
  (event.content?.parts ?? []).flatMap((part) => ('functionCall' in part ? [part.functionCall] : []));

describe.skipIf(!hasRealModel())('Gemma 3 270M (the real base model) in the agent’s worker', () => {
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
  }, 300_000);
  afterAll(() => agent?.close());

  test('says what it runs on: Gemma’s tool_code format, one call per step, one CPU thread', () => {
    expect(agent.info?.model).toMatchObject({ engine: 'wllama', toolFormat: 'gemma-tool-code', threads: 1 });
    // No chat template in the GGUF: a base model, whose steps end at their first call.
    expect(agent.info?.model.notice).toMatch(/chat template/);
  });

  test(
    '"Remember to buy milk" runs add_todo with milk once; the base model then repeats its call instead of answering, ' +
      'the repeat is not run, and the run ends saying why; each later step prefills only its new tokens',
    async () => {
      todos.length = 0;
      const { events, text, endReason, error } = await agent.send('Remember to buy milk', {
        toolChoice: 'required',
      });
      const steps = modelSteps(events);
      // The page's tool ran with milk in its text: milk is on the visitor's list.
      expect(todos[0]).toMatch(/milk/i);
      // What the base model does next (temperature 0): after the tool's output it writes the same call again, each
      // step; it never writes a reply. The repeat guard runs none of them again: milk is on the list once (it was
      // there three times before the guard), the model is told, and its second repeat ends the run with the reason.
      expect(steps.map((step) => callsOf(step).map((c) => [c.name, c.args]))).toEqual(
        Array(3).fill([['add_todo', { text: todos[0] }]]),
      );
      expect(todos).toEqual([todos[0]]);
      expect(endReason).toBe('repeated-call');
      expect(error?.message).toMatch(/again with the same arguments/);
      expect(text).toBe('');
      // llama.cpp kept each step's whole prompt: a later step prefills only the last call's output and what follows
      // (after a repeat, that output is the refusal the model reads, about 40 tokens of Gemma's vocabulary).
      const usage = steps.map((step) => step.usage!);
      for (let i = 1; i < usage.length; i++) {
        expect(usage[i].cachedPromptTokens).toBeGreaterThanOrEqual(usage[i - 1].promptTokens);
        expect(usage[i].promptTokens - usage[i].cachedPromptTokens!).toBeLessThan(80);
      }
      console.info(
        `Gemma 3 270M, "Remember to buy milk", 3 steps (prompt tokens: cached + prefilled): ${usage.map((u) => `${u.cachedPromptTokens} + ${u.promptTokens - u.cachedPromptTokens!}`).join(', ')}`,
      );
    },
    400_000,
  );

  test('a page request for each of five tools: every call valid; how many picked the right tool with the right arguments', async () => {
    const total: Score = { requests: 0, validCalls: 0, right: 0, rightTool: 0 };
    const wrong: string[] = [];
    for (const request of onePerTool) {
      const deltas: ModelDelta[] = [];
      for await (const delta of agent.generate({
        messages: [
          { role: 'system', content: pageInstructions },
          { role: 'user', content: request.text },
        ],
        tools: pageTools,
        toolChoice: 'required',
        sampling: { maxTokens: 24 },
      }))
        deltas.push(delta);
      const calls = deltas.flatMap((delta) => (delta.type === 'tool-call' ? [delta.call] : []));
      const errors = deltas.filter((delta) => delta.type === 'tool-call-error');
      // Under the grammar every call is one of the five tools with arguments its schema accepts.
      expect(errors, request.text).toEqual([]);
      expect(calls.length, request.text).toBeGreaterThan(0);
      const right = total.right;
      score(total, request, calls, errors.length);
      if (total.right === right) wrong.push(`${request.text} → ${calls[0].name}(${JSON.stringify(calls[0].args)})`);
    }
    expect(total.validCalls).toBe(pageTools.length);
    // A figure, not a threshold.
    console.info(
      `Gemma 3 270M, ${onePerTool.length} page requests: ${total.right} right tool with right arguments, ${total.rightTool} right tool, ${total.validCalls} valid. Wrong: ${wrong.join('; ')}`,
    );
  }, 600_000);

  test('a prompt past Gemma 3’s 512-token sliding window is reused whole by the step that extends it (swa_full)', async () => {
    const step = async (messages: ChatMessage[]) => {
      const deltas: ModelDelta[] = [];
      for await (const delta of agent.generate({ messages, tools: [], sampling: { maxTokens: 4 } })) deltas.push(delta);
      return deltas.find((delta) => delta.type === 'finish')!;
    };
    const notes = Array.from({ length: 36 }, (_, i) => `Note ${i + 1}: the shop opens at nine and closes at six.`);
    const first: ChatMessage[] = [
      { role: 'system', content: pageInstructions },
      { role: 'user', content: notes.join('\n') },
    ];
    const one = await step(first);
    expect(one.usage!.promptTokens).toBeGreaterThan(512);
    const two = await step([
      ...first,
      { role: 'assistant', content: one.raw ?? '', raw: one.raw ?? '' },
      { role: 'user', content: 'And on Sundays?' },
    ]);
    // Everything the first step read is still in llama.cpp's cache, although it is longer than the window.
    expect(two.usage!.cachedPromptTokens).toBeGreaterThanOrEqual(one.usage!.promptTokens);
    console.info(
      `Gemma 3 270M past its sliding window: step 1 read ${one.usage!.promptTokens} tokens; step 2 ${two.usage!.cachedPromptTokens} cached + ${two.usage!.promptTokens - two.usage!.cachedPromptTokens!} prefilled`,
    );
  }, 300_000);

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
  }, 300_000);
});
