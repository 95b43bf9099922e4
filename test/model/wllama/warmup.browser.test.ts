/**
 * agent.warmup() on llama.cpp's real path, in the agent's real worker, on tiny random-weight models: Qwen2.5's
 * vocabulary with its own chat template (jinja-prompt.ts), and Gemma's vocabulary without a template (our markup
 * and the worked example, wllama-prompt.ts). What a visitor would notice is that the first request reads only
 * itself; what the tests read is llama.cpp's own count of it (the step's usage: cache_n and prompt_n), beside the
 * warmup's own counts. A tiny model reads thousands of tokens a second, so long instructions make a warmup last
 * long enough to send a message, abort or close while it reads.
 */
import { describe, expect, test } from 'vitest';
import {
  createAgent,
  defineTool,
  z,
  type Agent,
  type AgentEvent,
  type PromptRead,
  type WarmupResult,
} from '../../../src/index';
import { AgentError } from '../../../src/errors';
import { agentsClosedAfterEach, uniqueDb } from '../../page/helpers';
import { settleWithin } from '../settles';

const start = agentsClosedAfterEach();
/** Qwen2.5's tokenizer and chat template (tools in its own section), random weights. */
const QWEN = '/models/tiny-qwen2_5.gguf';
/** Gemma's tokenizer, no chat template: a base model, in our markup with the worked example. */
const GEMMA_BASE = '/models/tiny-gemma2-plain.gguf';

const model = (url = QWEN) =>
  ({
    engine: 'wllama',
    url,
    contextWindow: 8192,
    temperature: 0,
    // A few tokens a step: the tests read the prompt's counts, not the answer.
    completion: { n_predict: 4 },
    ...(url === GEMMA_BASE && { toolFormat: 'gemma-tool-code' as const }),
  }) as const;

const tool = (name: string, description: string) =>
  defineTool({
    name,
    description,
    annotations: { readOnly: true },
    parameters: z.object({ text: z.string().describe('What to work on.') }),
    execute: ({ text }) => ({ ok: true, text }),
  });
const tools = [
  tool('add_todo', 'Add an item to the to-do list on this page.'),
  tool('list_todos', 'List the items of the to-do list.'),
  tool('clock', 'The time now.'),
];
/** Instructions of about 4,000 tokens: the warmup reads for seconds, in pieces. */
const LONG = [
  'You help with this page.',
  ...Array.from({ length: 300 }, (_, i) => `Rule ${i + 1}: keep item ${i + 1} of the list as the visitor wrote it.`),
].join('\n');

const modelSteps = (events: AgentEvent[]) =>
  events.filter((event) => event.content?.role === 'model' && !event.partial);
/** The first model step's prompt tokens: found in llama.cpp's cache, and prefilled. */
function firstStep(events: AgentEvent[]) {
  const usage = modelSteps(events)[0]!.usage!;
  return {
    prompt: usage.promptTokens,
    cached: usage.cachedPromptTokens!,
    prefilled: usage.promptTokens - usage.cachedPromptTokens!,
  };
}
/** The next 'warmup' event of the agent. */
const nextWarmup = (agent: Agent) =>
  new Promise<WarmupResult>((resolve) =>
    agent.addEventListener('warmup', (event) => resolve((event as CustomEvent<WarmupResult>).detail), { once: true }),
  );

describe('the prompt read ahead is the start of the first step’s prompt, token for token', () => {
  test('Qwen2.5’s own template, with a toolkit graph that leaves a tool out of the run: after warmup the first step prefills only the message', async () => {
    const dbName = uniqueDb('warmup-toolkit');
    // The graph first (the selector reads its start actions when the agent starts): export_archive hangs from an
    // action "organize" does not reach, so no run from there describes it; its long description would show.
    const setup = await start({ model: { engine: 'scripted', turns: [] }, dbName });
    await setup.toolkit.addAction({ id: 'organize', name: 'Organize', description: 'to-dos' });
    await setup.toolkit.addAction(
      { id: 'review', name: 'Review', description: 'the list' },
      [],
      [{ action: 'organize', score: 0.8 }],
    );
    await setup.toolkit.addAction({ id: 'archive', name: 'Archive', description: 'old items' });
    await setup.toolkit.addTool('add_todo', [{ action: 'organize', score: 0.9 }]);
    await setup.toolkit.addTool('list_todos', [{ action: 'review', score: 0.9 }]);
    await setup.toolkit.addTool('export_archive', [{ action: 'archive', score: 0.9 }]);
    await setup.close();
    const archive = tool('export_archive', `Export the archive. ${'It writes every old item to a file. '.repeat(40)}`);

    const agent = await start({
      model: model(),
      instructions: 'You help with this page.',
      tools: [...tools, archive],
      toolkit: { startActions: ['organize'] },
      dbName,
    });
    const read = await agent.warmup();
    expect(read).toMatchObject({ status: 'read', cachedTokens: 0 });
    expect(read.prefilledTokens).toBe(read.promptTokens);

    const { events } = await agent.send('Remember to buy milk');
    const step = firstStep(events);
    console.info(
      `Qwen2.5 template, toolkit: warmup read ${read.promptTokens} tokens; the first step ${step.prompt}: ${step.cached} cached + ${step.prefilled} prefilled`,
    );
    expect(step.cached).toBe(read.promptTokens);
    // The message's own tokens, in its turn: "Remember to buy milk<|im_end|>\n<|im_start|>assistant\n".
    expect(step.prefilled).toBeLessThan(16);

    // The same agent without the graph describes export_archive too: the prefix would have been longer.
    const all = await start({
      model: model(),
      instructions: 'You help with this page.',
      tools: [...tools, archive],
      dbName: uniqueDb('warmup-all'),
    });
    expect((await all.warmup()).promptTokens).toBeGreaterThan(read.promptTokens + 300);
  }, 120_000);

  test('a base model’s markup and worked example (Gemma’s vocabulary): after warmup the first step prefills only the message', async () => {
    const agent = await start({
      model: model(GEMMA_BASE),
      instructions: 'You help with this page.',
      tools,
      dbName: uniqueDb('warmup-base'),
    });
    const read = await agent.warmup();
    expect(read).toMatchObject({ status: 'read', cachedTokens: 0 });
    const { events } = await agent.send('Remember to buy milk', { toolChoice: 'required' });
    const step = firstStep(events);
    console.info(
      `Gemma markup + example: warmup read ${read.promptTokens} tokens; the first step ${step.prompt}: ${step.cached} cached + ${step.prefilled} prefilled`,
    );
    expect(step.cached).toBe(read.promptTokens);
    // The message (Gemma's vocabulary splits it finer), its turn's end and the model's turn.
    expect(step.prefilled).toBeLessThan(24);
  }, 120_000);
});

describe('while the warmup reads', () => {
  test('a message sent meanwhile waits for it and prefills only itself; nothing is read twice', async () => {
    const agent = await start({ model: model(), instructions: LONG, tools, dbName: uniqueDb('warmup-midway') });
    let warm: WarmupResult | undefined;
    const warming = agent.warmup().then((result) => (warm = result));
    await new Promise((resolve) => setTimeout(resolve, 500));
    // Half a second in, the warmup still reads (about 6,000 tokens): the message arrives mid-way.
    expect(warm).toBeUndefined();
    const events: AgentEvent[] = [];
    for await (const event of agent.run('Remember to buy milk')) {
      // The step came after the warmup was done: it waited for it.
      if (event.content?.role === 'model') expect(warm).toBeDefined();
      events.push(event);
    }
    const read = await warming;
    const step = firstStep(events);
    console.info(
      `mid-way: warmup read ${read.promptTokens} tokens in ${Math.round(read.ms)} ms (${read.prefilledTokens} prefilled); the step ${step.prompt}: ${step.cached} cached + ${step.prefilled} prefilled`,
    );
    expect(read.promptTokens).toBeGreaterThan(3000);
    // Read in pieces, each only past the last: the pieces add up to the prefix.
    expect(read.prefilledTokens).toBe(read.promptTokens);
    expect(step.cached).toBe(read.promptTokens);
    expect(step.prefilled).toBeLessThan(16);
  }, 120_000);

  test('how far it has read shows as warmup-progress events: from 0, growing, up to all it read; none after it ends', async () => {
    const agent = await start({ model: model(), instructions: LONG, tools, dbName: uniqueDb('warmup-progress') });
    const seen: PromptRead[] = [];
    let ended = false;
    agent.addEventListener('warmup-progress', (event) => {
      expect(ended).toBe(false);
      seen.push((event as CustomEvent<PromptRead>).detail);
    });
    const read = await agent.warmup();
    ended = true;
    const shares = seen.map(({ read: done, of }) => `${Math.round((100 * done) / of)}%`);
    console.info(`warmup-progress: ${seen.length} events for ${read.prefilledTokens} tokens: ${shares.join(' ')}`);
    expect(seen[0]!.read).toBe(0);
    // One event a piece: the first piece is 64 tokens, each after it about a second's reading at the speed of the one
    // before, so how many there are depends on the machine (3 and 4 seen for these 6,377 tokens: the tiny model may
    // read the rest in one piece); between the first and the last, shares in between.
    expect(seen.length).toBeGreaterThanOrEqual(3);
    expect(seen.slice(1, -1).every(({ read: done, of }) => done > 0 && done < of)).toBe(true);
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.read).toBeGreaterThan(seen[i - 1]!.read);
    expect(seen.at(-1)).toEqual({ read: read.prefilledTokens, of: read.prefilledTokens });
    // The whole is estimated before the end; after the first piece, at the ratio llama.cpp's count showed.
    for (const { of } of seen.slice(1))
      expect(Math.abs(of - read.prefilledTokens)).toBeLessThan(read.prefilledTokens * 0.05);
    // A message afterwards: nothing more is reported (the run's own reading comes as its events).
    await agent.send('Remember to buy milk');
    expect(seen.at(-1)).toEqual({ read: read.prefilledTokens, of: read.prefilledTokens });
  }, 120_000);

  test('an abort rejects the warmup at once; what was read stays in the cache and the next message reuses it', async () => {
    const agent = await start({ model: model(), instructions: LONG, tools, dbName: uniqueDb('warmup-abort') });
    const controller = new AbortController();
    const warming = agent.warmup({ signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    controller.abort();
    const { error } = await settleWithin(warming, 200);
    expect(error).toBeInstanceOf(AgentError);
    expect((error as AgentError).code).toBe('aborted');

    const { events, endReason } = await agent.send('Remember to buy milk');
    expect(endReason).toBeDefined();
    const step = firstStep(events);
    console.info(
      `aborted after 1 s: the next step ${step.prompt}: ${step.cached} cached + ${step.prefilled} prefilled`,
    );
    // The pieces read before the abort, not more than the whole prompt.
    expect(step.cached).toBeGreaterThan(0);
    expect(step.cached).toBeLessThan(step.prompt);

    // A warmup now reads only what the aborted one left, and says so.
    const again = await agent.warmup();
    expect(again.cachedTokens).toBeGreaterThan(0);
  }, 120_000);

  test('a run aborted while it waits for the warmup ends at once; the warmup goes on and the next message reuses it', async () => {
    const agent = await start({ model: model(), instructions: LONG, tools, dbName: uniqueDb('warmup-run-abort') });
    let warm: WarmupResult | undefined;
    const warming = agent.warmup().then((result) => (warm = result));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const controller = new AbortController();
    const waiting = agent.send('Remember to buy milk', { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(warm).toBeUndefined();
    controller.abort();
    const { value } = await settleWithin(waiting, 1000);
    expect(value?.endReason).toBe('aborted');
    // No model step ran for it: it never had its turn.
    expect(value?.events.filter((event) => event.content?.role === 'model')).toEqual([]);

    const read = await warming;
    expect(read.status).toBe('read');
    const step = firstStep((await agent.send('Remember to buy milk')).events);
    expect(step.cached).toBeGreaterThanOrEqual(read.promptTokens);
  }, 120_000);

  test('close() during a warmup returns at once; the session keeps every event', async () => {
    const dbName = uniqueDb('warmup-close');
    // A session with a conversation in it, which the warmup reads after the instructions.
    const writer = await start({ model: { engine: 'scripted', turns: [{ text: 'Noted.' }] }, dbName });
    const sessionId = writer.sessionId;
    await writer.send('Remember to buy milk');
    const before = (await writer.sessions.get(sessionId))!.events.map((event) => event.id);
    await writer.close();

    const agent = await createAgent({ model: model(), instructions: LONG, tools, dbName, sessionId });
    const warming = agent.warmup();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const closed = await settleWithin(agent.close(), 2000);
    expect(closed.error).toBeUndefined();
    const { error } = await settleWithin(warming, 200);
    expect((error as AgentError).code).toBe('closed');

    const reopened = await start({ model: { engine: 'scripted', turns: [] }, dbName, sessionId });
    expect((await reopened.sessions.get(sessionId))!.events.map((event) => event.id)).toEqual(before);
  }, 120_000);
});

describe('createAgent({ warmup: true })', () => {
  test('reads ahead once the model has loaded, and again after openSession(), which keeps the model and what it read', async () => {
    const progress: string[] = [];
    const agent = await start({
      model: { ...model(), onProgress: (p) => progress.push(p.text) },
      instructions: 'You help with this page.',
      tools,
      dbName: uniqueDb('warmup-auto'),
      warmup: true,
    });
    const first = await nextWarmup(agent);
    expect(first).toMatchObject({ status: 'read', cachedTokens: 0 });
    const before = firstStep((await agent.send('Remember to buy milk')).events);
    expect(before.cached).toBe(first.promptTokens);

    const loads = progress.length;
    const oldSession = agent.sessionId;
    const warmed = nextWarmup(agent);
    const opened = await agent.openSession();
    expect(opened).not.toBe(oldSession);
    expect(agent.sessionId).toBe(opened);
    const second = await warmed;
    // The same instructions and tools: llama.cpp held them from the last session (it reads one token again, the last).
    expect(second.promptTokens).toBe(first.promptTokens);
    expect(second.prefilledTokens).toBeLessThanOrEqual(1);
    const { events } = await agent.send('Also add call the bank');
    expect(events.every((event) => event.sessionId === opened)).toBe(true);
    const after = firstStep(events);
    console.info(
      `openSession: warmup ${second.cachedTokens} cached + ${second.prefilledTokens} prefilled; the new session's first step ${after.prompt}: ${after.cached} cached + ${after.prefilled} prefilled`,
    );
    expect(after.cached).toBe(first.promptTokens);
    expect(after.prefilled).toBeLessThan(16);
    // No load again: the model stayed.
    expect(progress.length).toBe(loads);
    expect((await agent.sessions.get(oldSession))?.events.some((event) => event.content?.role === 'user')).toBe(true);
  }, 120_000);
});
