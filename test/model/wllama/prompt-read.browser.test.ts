/**
 * While llama.cpp reads a step's prompt, the run says how far it has read: a
 * CPU model reads a 500-token prompt for a minute before its first word, and
 * a page shows that as progress rather than as silence. llama.cpp reads the
 * prompt in batches on the CPU (wllama-engine.ts), and reports each one; and
 * a stop takes effect at the end of the batch, not of the whole prompt.
 */
import { expect, test } from 'vitest';
import type { AgentEvent } from '../../../src/index';
import { agentsClosedAfterEach, uniqueDb } from '../../page/helpers';
import { hasRealModel, REAL_MODEL_URL } from '../../real-model';

const start = agentsClosedAfterEach();

test('a step that reads a long prompt says, batch by batch, how much of it the model has read', async () => {
  const agent = await start({
    model: {
      engine: 'wllama',
      url: '/models/tiny-qwen2_5-prose.gguf',
      toolFormat: 'hermes',
      contextWindow: 2048,
      seed: 3,
      completion: { n_predict: 4 },
    },
    instructions: 'You keep notes for the person using this page, and answer in one short sentence. '.repeat(30),
    dbName: uniqueDb('prompt-read'),
  });
  const readings = async (text: string) => {
    const events: AgentEvent[] = [];
    for await (const event of agent.run(text)) events.push(event);
    const read = events.filter((event) => event.promptRead).map((event) => event.promptRead!);
    const step = events.find((event) => event.usage && !event.partial)!;
    const order = events.findIndex((event) => event.promptRead);
    const firstWord = events.findIndex((event) => event.partial && event.content?.role === 'model');
    return { read, usage: step.usage!, beforeWords: firstWord === -1 || order < firstWord };
  };

  const first = await readings('Hello');
  // Several batches, in order, all of the same prompt, the last one the whole of it, before the model wrote.
  expect(first.read.length).toBeGreaterThan(3);
  expect(first.beforeWords).toBe(true);
  for (let i = 1; i < first.read.length; i++) expect(first.read[i].read).toBeGreaterThan(first.read[i - 1].read);
  expect(new Set(first.read.map((reading) => reading.of))).toEqual(new Set([first.usage.promptTokens]));
  expect(first.read.at(-1)!.read).toBe(first.usage.promptTokens);

  // The next request reads only what the cache does not hold: its progress counts that part.
  const next = await readings('And again');
  const uncached = next.usage.promptTokens - (next.usage.cachedPromptTokens ?? 0);
  expect(uncached).toBeLessThan(next.usage.promptTokens / 2);
  expect(next.read.at(-1)).toEqual({ read: uncached, of: uncached });
}, 120_000);

test.skipIf(!hasRealModel())(
  'a stop while a real model reads its prompt ends the reading a batch or two on, not at the prompt’s end (Gemma 3 270M)',
  async () => {
    const agent = await start({
      model: { engine: 'wllama', url: REAL_MODEL_URL, completion: { n_predict: 4 } },
      instructions: 'You keep notes for the person using this page, and answer in one short sentence. '.repeat(40),
      dbName: uniqueDb('prompt-read-stop'),
    });
    const stop = new AbortController();
    let readWhenStopped = 0;
    let of = 0;
    const events: AgentEvent[] = [];
    for await (const event of agent.run('Hello', { signal: stop.signal })) {
      events.push(event);
      if (event.promptRead && event.promptRead.read > 0 && !stop.signal.aborted) {
        ({ read: readWhenStopped, of } = event.promptRead);
        stop.abort();
      }
    }
    expect(events.at(-1)?.endReason).toBe('aborted');
    expect(readWhenStopped).toBeGreaterThan(0);
    expect(readWhenStopped).toBeLessThan(of / 4);
    // llama.cpp stopped a batch or two later (the stop crosses two workers meanwhile), not at the prompt's end:
    // reading the same instructions ahead finds only that part in its cache, and reads the rest.
    const ahead = await agent.warmup();
    expect(ahead.status).toBe('read');
    expect(ahead.cachedTokens).toBeGreaterThanOrEqual(readWhenStopped);
    expect(ahead.cachedTokens).toBeLessThan(ahead.promptTokens - 128);
    console.info(
      `Stopped at ${readWhenStopped} of ${of} prompt tokens read; llama.cpp held ${ahead.cachedTokens} of the ${ahead.promptTokens} read ahead after.`,
    );
  },
  300_000,
);
