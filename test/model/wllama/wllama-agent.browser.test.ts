/**
 * The wllama engine in the agent's real worker (llama.cpp starts its own
 * worker inside ours), through createAgent, on the tiny random-weight model
 * with Gemma's vocabulary and format: a page tool called under the grammar,
 * the KV cache kept across steps, stop within a batch, whole characters in
 * streamed text, share: 'tabs', a worker killed mid-decode and a reload.
 */
import { describe, expect, test } from 'vitest';
import { defineTool, z, type Agent, type AgentEvent } from '../../../src/index';
import { agentsClosedAfterEach, killableWorker, responses, uniqueDb } from '../../page/helpers';

const start = agentsClosedAfterEach();
/** Gemma's vocabulary; random weights that write quotes and brackets (calls close soon), or words. */
const CALLER = '/models/tiny-gemma2-plain.gguf';
const WRITER = '/models/tiny-gemma2-prose.gguf';
// Short answers (llama.cpp's n_predict wins over the engine's length limit).
const SAMPLING = { n_predict: 64 };
/** The whole distribution: a writer of words, not of punctuation. */
const PROSE = { top_k: 0, top_p: 1, min_p: 0 };

const model = (extra: Record<string, unknown> = {}) =>
  ({
    engine: 'wllama',
    url: CALLER,
    toolFormat: 'gemma-tool-code',
    contextWindow: 2048,
    temperature: 1,
    seed: 7,
    completion: SAMPLING,
    ...extra,
  }) as const;
/** Writes on and on, until stopped. */
const talker = (extra: Record<string, unknown> = {}) =>
  model({ url: WRITER, completion: { ...PROSE, n_predict: 200, ignore_eos: true }, ...extra });

function noteTool() {
  const notes: string[] = [];
  const addNote = defineTool({
    name: 'add_note',
    description: 'Write a note on this page.',
    parameters: z.object({ text: z.string() }),
    execute: ({ text }) => {
      notes.push(text);
      return { saved: notes.length };
    },
  });
  return { notes, addNote };
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const modelSteps = (events: AgentEvent[]) =>
  events.filter((event) => event.content?.role === 'model' && !event.partial);

describe('a GGUF model in the agent’s worker', () => {
  test('runs a page tool the model called under the grammar, and says what it runs on', async () => {
    const { notes, addNote } = noteTool();
    const agent = await start({ model: model(), tools: [addNote], dbName: uniqueDb('wllama-tool'), maxSteps: 2 });
    expect(agent.info?.model).toMatchObject({
      engine: 'wllama',
      toolFormat: 'gemma-tool-code',
      threads: 1,
      contextWindow: 2048,
    });
    expect(agent.info?.model.label).toBe('tiny-random-gemma2 (llama.cpp, one CPU thread)');
    // The tiny GGUF carries no chat template, so it is taken for a base model, and says so.
    expect(agent.info?.model.notice).toMatch(
      /tiny-random-gemma2 has no chat template .* each step ends with its first call/,
    );
    // And, where the device has cores to spare, why llama.cpp runs one thread here: this test page is not isolated.
    if (navigator.hardwareConcurrency > 1)
      expect(agent.info?.model.notice).toMatch(
        /^llama\.cpp runs on one thread of this device's \d+ cores because this page is not cross-origin isolated/,
      );
    const { events } = await agent.send('Write a note.', { toolChoice: 'required' });
    expect(notes).toHaveLength(1);
    expect(responses(events)[0]).toMatchObject({ name: 'add_note', response: { saved: 1 } });
    expect(modelSteps(events)[0].raw).toMatch(/^```tool_code\nadd_note\(text=".*"\)\n```/s);
  }, 60_000);

  test('each step reuses llama.cpp’s cache of the last one: its whole prompt, and the model’s turn up to where it re-tokenizes differently', async () => {
    const { addNote } = noteTool();
    const agent = await start({ model: model(), tools: [addNote], dbName: uniqueDb('wllama-kv'), maxSteps: 2 });
    const steps: AgentEvent[] = [];
    for (const text of ['Write a note.', 'And another one.', 'One more.']) {
      const { events } = await agent.send(text, { toolChoice: 'required' });
      steps.push(...modelSteps(events));
    }
    expect(steps.length).toBeGreaterThanOrEqual(3);
    const usage = steps.map((step) => step.usage!);
    expect(usage[0].cachedPromptTokens).toBe(0);
    for (let i = 1; i < usage.length; i++) {
      const before = usage[i - 1];
      // Everything the last step read is still cached; of what it wrote, the tokens up to the first one that the text
      // written back tokenizes differently (a random model's tokens are seldom the tokenizer's own). What is
      // prefilled is the last step's output from there, and this step's new turn.
      expect(usage[i].cachedPromptTokens).toBeGreaterThanOrEqual(before.promptTokens);
      expect(usage[i].cachedPromptTokens).toBeLessThan(usage[i].promptTokens);
    }
    console.info(
      `KV reuse, ${usage.length} steps (prompt tokens: cached + prefilled): ${usage.map((u) => `${u.cachedPromptTokens} + ${u.promptTokens - u.cachedPromptTokens!}`).join(', ')}`,
    );
  }, 120_000);

  test('stop ends decoding within a batch, and the next run works', async () => {
    const agent = await start({ model: talker(), dbName: uniqueDb('wllama-stop') });
    const controller = new AbortController();
    let after = 0;
    const seen: AgentEvent[] = [];
    for await (const event of agent.run('Talk for a long time.', { signal: controller.signal })) {
      seen.push(event);
      if (controller.signal.aborted && event.partial) after++;
      if (event.partial && !controller.signal.aborted) controller.abort();
    }
    expect(seen.at(-1)).toMatchObject({ endReason: 'aborted' });
    // Text already on its way when the signal fired: at most one more token.
    expect(after).toBeLessThanOrEqual(1);
    const next = await agent.send('Say something.');
    expect(next.events.at(-1)).toMatchObject({ endReason: 'answer' });
  }, 60_000);

  test('streamed text arrives in whole characters, CJK and emoji included', async () => {
    const agent = await start({
      model: model({ url: WRITER, completion: { ...PROSE, n_predict: 80 } }),
      dbName: uniqueDb('wllama-utf8'),
    });
    const pieces: string[] = [];
    let text = '';
    for await (const event of agent.run('Write anything.')) {
      if (event.partial) for (const part of event.content?.parts ?? []) if ('text' in part) pieces.push(part.text);
      if (!event.partial && event.content?.role === 'model')
        text = event.content.parts.map((part) => ('text' in part ? part.text : '')).join('');
    }
    expect(pieces.length).toBeGreaterThan(3);
    // Every piece is well-formed UTF-16 (no half of a surrogate pair) and holds no replacement character.
    for (const piece of pieces) {
      expect(LONE_SURROGATE.test(piece), JSON.stringify(piece)).toBe(false);
      expect(piece).not.toContain('\ufffd');
    }
    expect(pieces.join('').trim()).toBe(text.trim());
    expect(text).toMatch(/[^\x00-\x7f]/);
  }, 60_000);

  test("share: 'tabs' runs it in the tab's own worker, and agent.info says why", async () => {
    const agent = await start({ model: model(), share: 'tabs', dbName: uniqueDb('wllama-share') });
    expect(agent.info?.host).toBe('worker');
    expect(agent.info?.hostNotice).toMatch(/llama\.cpp .* starts a worker of its own, which a SharedWorker cannot do/);
    const { events } = await agent.send('Hello.');
    expect(events.at(-1)).toMatchObject({ endReason: 'answer' });
  }, 60_000);
});

describe('crash and reload with llama.cpp', () => {
  test('a worker killed mid-decode: the run rejects with worker-crashed, and the restarted worker loads the model from the cache and answers', async () => {
    const worker = killableWorker();
    const dbName = uniqueDb('wllama-crash');
    const progress: string[] = [];
    const agent: Agent = await start({
      workerUrl: worker.workerUrl,
      model: { ...talker(), onProgress: (p) => progress.push(p.text) },
      dbName,
    });
    const sessionId = agent.sessionId;
    const run = (async () => {
      for await (const event of agent.run('Talk for a long time.')) if (event.partial) worker.kill();
    })();
    await expect(run).rejects.toMatchObject({ code: 'worker-crashed' });
    const { events } = await agent.send('Are you there?');
    expect(events.at(-1)).toMatchObject({ endReason: 'answer' });
    expect(agent.sessionId).toBe(sessionId);
    expect(progress.filter((text) => /in this browser's cache/.test(text)).length).toBeGreaterThanOrEqual(1);
    const stored = (await agent.sessions.get(sessionId))!.events;
    expect(stored[0].content!.parts).toEqual([{ text: 'Talk for a long time.' }]);
  }, 120_000);

  test('a reload mid-run: a new agent on the session reads the stored conversation once, then reuses it', async () => {
    const dbName = uniqueDb('wllama-reload');
    const { notes, addNote } = noteTool();
    const worker = killableWorker();
    const first = await start({ workerUrl: worker.workerUrl, model: model(), tools: [addNote], dbName, maxSteps: 2 });
    const sessionId = first.sessionId;
    // The page goes away while the model is answering after its call: the worker dies with it.
    const run = (async () => {
      for await (const event of first.run('Write a note.', { toolChoice: 'required' }))
        if (event.content?.role === 'tool' && !event.partial) worker.kill();
    })();
    await run.catch(() => undefined);
    expect(notes).toHaveLength(1);

    const second = await start({ model: model(), tools: [addNote], dbName, sessionId, restart: 'never', maxSteps: 2 });
    const { events } = await second.send('Write another.', { toolChoice: 'required' });
    expect(notes).toHaveLength(2);
    const steps = modelSteps(events).map((step) => step.usage!);
    // The first step of the new worker prefilled everything stored (the first run's call and its result included)…
    expect(steps[0].cachedPromptTokens).toBe(0);
    // …and the next one reused it.
    if (steps[1]) expect(steps[1].cachedPromptTokens).toBeGreaterThan(steps[0].promptTokens - 4);
    const stored = (await second.sessions.get(sessionId))!.events;
    expect(responses(stored).map((response) => response.name)).toEqual(['add_note', 'add_note']);
  }, 120_000);
});
