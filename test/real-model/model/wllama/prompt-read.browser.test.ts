/**
 * A stop while llama.cpp reads a step's prompt takes effect at the end of the
 * batch it is reading, not of the whole prompt (wllama-engine.ts reads the
 * prompt in batches and reports each one: test/model/wllama/prompt-read.browser.test.ts),
 * with the real base model, Gemma 3 270M, whose prompt takes long enough to read.
 */
import { expect, test } from 'vitest';
import type { AgentEvent } from '../../../../src/index';
import { agentsClosedAfterEach, uniqueDb } from '../../../page/helpers';
import { hasRealModel, REAL_MODEL_URL } from '../../real-model';

const start = agentsClosedAfterEach();

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
