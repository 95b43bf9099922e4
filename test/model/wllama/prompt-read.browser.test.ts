/**
 * While llama.cpp reads a step's prompt, the run says how far it has read: a
 * CPU model reads a 500-token prompt for a minute before its first word, and
 * a page shows that as progress rather than as silence. llama.cpp reads the
 * prompt in batches on the CPU (wllama-load.ts), and reports each one. (That
 * a stop takes effect a batch or two on, not at the end of the whole prompt,
 * is prefill-stop.browser.test.ts's, by llama.cpp's own counts, and
 * test/real-model/model/wllama/prompt-read.browser.test.ts's, on a real model.)
 */
import { expect, test } from 'vitest';
import type { AgentEvent } from '../../../src/index';
import { agentsClosedAfterEach, uniqueDb } from '../../page/helpers';

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
