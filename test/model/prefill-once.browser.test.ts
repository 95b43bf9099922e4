/**
 * Prefill once: through createAgent, in a real worker, our web-llm engine over
 * web-llm's real MLCEngine with a weightless pipeline (test/model/prefill).
 * web-llm's own code decides at each step whether its KV cache is kept
 * (preparePrefillInput: the request's messages but the last must be the
 * conversation it holds, and the previous answer must not have ended by
 * abort or length); the pipeline counts what it would prefill with Qwen3's
 * real tokenizer. Each prefill reaches the test over a BroadcastChannel.
 */
import { describe, expect, test } from 'vitest';
import { createAgent, defineTool, z, type Agent, type AgentEvent } from '../../src/index';
import { agentsClosedAfterEach, uniqueDb } from '../page/helpers';
import { toolsPromptText } from '../../src/model/context-usage';
import { toDeclaration } from '../../src/tools/to-declaration';
import { qwen3Tokenizer } from './prefill/qwen3-tokenizer';
import type { Prefill } from './prefill/weightless-pipeline';
import type { PrefillEngineOptions } from './fixtures/engines/prefill-webllm';

const start = agentsClosedAfterEach();
// Through a variable, so that vite leaves the URL alone.
const here = import.meta.url;
const engineUrl = new URL('fixtures/engines/prefill-webllm.ts', here).href;

function prefillModel(options: Omit<PrefillEngineOptions, 'channel'>): {
  model: { engine: 'module'; url: string; options: PrefillEngineOptions };
  prefills: Prefill[];
} {
  const channel = `prefill-${crypto.randomUUID()}`;
  const prefills: Prefill[] = [];
  new BroadcastChannel(channel).onmessage = (message: MessageEvent<Prefill>) => prefills.push(message.data);
  return { model: { engine: 'module', url: engineUrl, options: { ...options, channel } }, prefills };
}

/** Waits until the worker's BroadcastChannel messages are in. */
async function settled(prefills: Prefill[], count: number): Promise<Prefill[]> {
  for (let i = 0; i < 100 && prefills.length < count; i++) await new Promise((resolve) => setTimeout(resolve, 20));
  return prefills;
}

/** Qwen3 thinks, then calls in Hermes's <tool_call> form. */
const call = (name: string, args: object, thought = `I will use ${name}.`) =>
  `<think>\n${thought}\n</think>\n\n<tool_call>\n{"name": "${name}", "arguments": ${JSON.stringify(args)}}\n</tool_call>`;
const answer = (text: string) => `<think>\nThat is everything.\n</think>\n\n${text}`;

const ACTIONS: Record<string, string[]> = {
  plan: ['outline', 'list_steps', 'estimate', 'schedule', 'assign'],
  gather: ['search_docs', 'read_page', 'fetch_prices', 'lookup_user', 'check_stock'],
  act: ['add_todo', 'send_email', 'book_room', 'order_item', 'set_reminder'],
  report: ['summarize', 'make_chart', 'export_csv', 'share_link', 'notify'],
};

const twentyTools = Object.values(ACTIONS)
  .flat()
  .map((name) =>
    defineTool({
      name,
      description: `${name.replace('_', ' ')}: one of the twenty tools of this page, with a description of ordinary length.`,
      annotations: { readOnly: true },
      parameters: z.object({ query: z.string().describe('What to work on.'), limit: z.number().optional() }),
      execute: ({ query }) => ({ ok: true, tool: name, query }),
    }),
  );

/** plan → gather → act → report, each action calling its five tools. */
async function buildGraph(dbName: string) {
  const setup = await createAgent({ model: { engine: 'scripted', turns: [] }, dbName });
  const names = Object.keys(ACTIONS);
  for (const [index, id] of names.entries()) {
    const previous = names[index - 1];
    await setup.toolkit.addAction(
      { id, name: id[0].toUpperCase() + id.slice(1), description: `the ${id} step` },
      [],
      previous ? [{ action: previous, score: 0.9 }] : [],
    );
    for (const tool of ACTIONS[id]) await setup.toolkit.addTool(tool, [{ action: id, score: 0.9 }]);
  }
  await setup.close();
}

const modelEvents = (events: AgentEvent[]) => events.filter((event) => event.content?.role === 'model');

describe('web-llm keeps its KV cache across the steps of a run', () => {
  test('an 8-step run with 20 tools and a toolkit graph that changes the allowed tools at every action never resets the cache', async () => {
    const dbName = uniqueDb('prefill-8');
    await buildGraph(dbName);
    const { model, prefills } = prefillModel({
      family: 'qwen3',
      outputs: [
        call('outline', { query: 'the trip' }),
        call('search_docs', { query: 'hotels' }),
        call('read_page', { query: 'hotel list', limit: 3 }),
        call('add_todo', { query: 'book the hotel' }),
        call('set_reminder', { query: 'check in' }),
        call('summarize', { query: 'the plan' }),
        call('export_csv', { query: 'the plan' }),
        answer('Your trip is planned: the hotel is on your list and the plan is exported.'),
      ],
    });
    const agent: Agent = await start({
      model,
      instructions: 'You plan trips for the person on this page.',
      tools: twentyTools,
      toolkit: { startActions: ['plan'], hops: 1 },
      maxSteps: 10,
      dbName,
    });
    const before = await agent.contextUsage();
    const { events, text } = await agent.send('Plan my trip to Lyon.');
    const after = await agent.contextUsage();
    expect(text).toContain('Your trip is planned');
    const steps = modelEvents(events);
    expect(steps).toHaveLength(8);
    expect(
      events
        .filter((event) => event.content?.role === 'tool')
        .every((event) => !JSON.stringify(event).includes('"error"')),
    ).toBe(true);

    // The graph moved: the steps allowed four different sets of tools.
    expect(new Set(steps.map((step) => step.offeredTools!.join())).size).toBe(4);
    expect(steps[0].offeredTools).toEqual([...ACTIONS.plan, ...ACTIONS.gather]);
    expect(steps[7].offeredTools).toEqual(ACTIONS.report);

    await settled(prefills, 8);
    expect(prefills.map((prefill) => prefill.reset)).toEqual([true, false, false, false, false, false, false, false]);
    // Every later step prefills only its new round: the minimum, each token once.
    for (const prefill of prefills.slice(1)) expect(prefill.tokens).toBe(prefill.roundTokens);
    expect(prefills[0].tokens).toBeGreaterThan(1500); // instructions and twenty tools, read once
    for (const prefill of prefills.slice(1)) expect(prefill.tokens).toBeLessThan(120);
    // web-llm's usage reaches the model events: what each step really read.
    expect(steps.map((step) => step.usage?.promptTokens)).toEqual(prefills.map((prefill) => prefill.tokens));

    // contextUsage() counts with the model's own tokenizer once it is loaded (here Qwen3's, read from web-llm's pipeline).
    const tokenizer = await qwen3Tokenizer();
    const count = (text: string) => tokenizer.encode(text).length;
    const system = `You plan trips for the person on this page.\n\nSteps this task can go through: Plan (the plan step); Gather (the gather step); Act (the act step); Report (the report step).`;
    expect(before.instructions).toBe(count(system));
    expect(before.tools).toBe(count(toolsPromptText(agent.info!.model, twentyTools.map(toDeclaration))));
    expect(before).toMatchObject({ window: 4096, history: 0 });
    expect(after.instructions + after.tools).toBe(before.instructions + before.tools);
    // What the run put in the window, against what web-llm really holds: every token prefilled or generated.
    const held =
      prefills.reduce((sum, p) => sum + p.tokens, 0) + steps.reduce((sum, s) => sum + s.usage!.completionTokens, 0);
    const measured = after.instructions + after.tools + after.history;
    expect(Math.abs(measured - held) / held).toBeLessThan(0.05);
    expect(after.free).toBe(4096 - measured);
  }, 60_000);

  test('a run cut off at the length limit, or aborted, resets the cache once, and the next run reuses it again', async () => {
    const { model, prefills } = prefillModel({
      family: 'qwen3',
      contextWindow: 2048, // max_tokens 512
      msPerToken: 1,
      outputs: [
        'word '.repeat(600),
        call('add_todo', { query: 'milk' }),
        answer('Milk is on your list.'),
        'word '.repeat(400),
        call('add_todo', { query: 'eggs' }),
        answer('Eggs are on your list.'),
      ],
    });
    const agent = await start({ model, tools: twentyTools.slice(10, 13), dbName: uniqueDb('prefill-cut') });
    const cut = await agent.send('Talk for a long time.');
    expect(modelEvents(cut.events)).toHaveLength(1);
    expect((await agent.send('Add milk.')).text.trim()).toBe('Milk is on your list.');

    const controller = new AbortController();
    const reasons: (string | undefined)[] = [];
    for await (const event of agent.run('Talk for a long time again.', { signal: controller.signal })) {
      if (event.partial) controller.abort();
      if (event.endReason) reasons.push(event.endReason);
    }
    expect(reasons).toEqual(['aborted']);
    expect((await agent.send('Add eggs.')).text.trim()).toBe('Eggs are on your list.');

    await settled(prefills, 6);
    // web-llm cannot continue an answer cut by length or abort in place (its last token is not in the cache):
    // the step after each resets once; every other step extends the conversation, even from one run to the next.
    expect(prefills.map((prefill) => prefill.reset)).toEqual([true, true, false, false, true, false]);
    for (const prefill of prefills.filter((prefill) => !prefill.reset))
      expect(prefill.tokens).toBe(prefill.roundTokens);
  }, 60_000);

  test('a run longer than the window trims in large blocks: the cache resets only at the steps that cut, and is reused between them', async () => {
    const page = (i: number) =>
      `Page ${i}: ${'Hotels, trains and museums of Lyon, with opening hours and prices. '.repeat(8)}`;
    const reader = defineTool({
      name: 'read_page',
      description: 'Read a page of the guide.',
      annotations: { readOnly: true },
      parameters: z.object({ page: z.number() }),
      execute: ({ page: i }) => page(i),
    });
    const { model, prefills } = prefillModel({
      family: 'qwen3',
      contextWindow: 2048, // 512 kept for the answer
      outputs: [
        ...Array.from({ length: 15 }, (_, i) => call('read_page', { page: i + 1 }, `Next, page ${i + 1}.`)),
        answer('I have read the whole guide.'),
      ],
    });
    const agent = await start({ model, tools: [reader], maxSteps: 20, dbName: uniqueDb('prefill-trim') });
    const { events } = await agent.send('Read the guide to Lyon, page by page.');
    const steps = modelEvents(events);
    expect(steps).toHaveLength(16);
    await settled(prefills, 16);
    const trimmedAt = steps.flatMap((step, i) => (step.contextTrimmed ? [i] : []));
    const resetAt = prefills.flatMap((prefill, i) => (prefill.reset ? [i] : []));
    // Trimming happened, rarely; a step resets only where the cut moved (the first step aside).
    expect(trimmedAt.length).toBeGreaterThan(0);
    expect(resetAt.length).toBeLessThanOrEqual(4);
    for (const i of resetAt.slice(1)) expect(steps[i].contextTrimmed).toBeGreaterThan(0);
    for (const prefill of prefills.filter((prefill) => !prefill.reset))
      expect(prefill.tokens).toBe(prefill.roundTokens);
  }, 60_000);

  test('a session resumed after a reload (a new worker, an empty cache) prefills once on its first step and reuses from the second on', async () => {
    const dbName = uniqueDb('prefill-reload');
    const before = prefillModel({
      family: 'qwen3',
      outputs: [call('add_todo', { query: 'milk' }), answer('Milk is on your list.')],
    });
    const first = await start({ model: before.model, tools: twentyTools.slice(10, 13), dbName });
    await first.send('Add milk.');
    const sessionId = first.sessionId;
    await first.close();
    await settled(before.prefills, 2);
    expect(before.prefills.map((prefill) => prefill.reset)).toEqual([true, false]);

    const after = prefillModel({
      family: 'qwen3',
      outputs: [call('add_todo', { query: 'eggs' }), answer('Eggs are on your list too.')],
    });
    const second = await start({ model: after.model, tools: twentyTools.slice(10, 13), dbName, sessionId });
    const { text } = await second.send('Add eggs.');
    expect(text.trim()).toBe('Eggs are on your list too.');
    await settled(after.prefills, 2);
    expect(after.prefills.map((prefill) => prefill.reset)).toEqual([true, false]);
    // The first step read the whole stored conversation once (more than the first session's first step).
    expect(after.prefills[0].tokens).toBeGreaterThan(before.prefills[0].tokens);
    expect(after.prefills[1].tokens).toBe(after.prefills[1].roundTokens);
  }, 60_000);
});
