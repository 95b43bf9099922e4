/**
 * A stop while llama.cpp reads a step's own prompt ends the reading within a
 * batch or two, not at the prompt's end: on a busy 2-core machine a long
 * prompt takes minutes, and Stop must not wait for it.
 *
 * Why it does, in wllama 3.8.1: a streamed completion is a loop of polls
 * (getResponse in src/wllama.ts), each a `get_result` that runs llama.cpp's
 * server loop once (action_get_result → run_loop in cpp/wllama-context.h),
 * and one pass of that loop decodes one batch of the prompt: 128 tokens on the
 * CPU (CPU_BATCH, wllama-load.ts). The abort signal is read before each poll,
 * and an abort cancels the request (cancelRequest). So what llama.cpp reads
 * after a stop is the batch of the poll in flight, and one more if the stop
 * is still on its way from the page. The tokens it read stay in its cache,
 * so the next step's count of cached tokens (llama.cpp's cache_n) says how
 * far it read.
 *
 * Measured on the tiny Qwen2.5 (6,104 prompt tokens, stopped at the first
 * progress event, read 0): llama.cpp held 256 tokens afterwards (384 when
 * stopped at read 128). With the prompt read in one batch (CPU_BATCH 8192,
 * the case) it held 6,102: it had read the whole prompt before it
 * saw the stop.
 */
import { expect, test } from 'vitest';
import type { AgentEvent } from '../../../src/index';
import { agentsClosedAfterEach, uniqueDb } from '../../page/helpers';

const start = agentsClosedAfterEach();

/** Instructions of about 6,000 tokens (Qwen2.5's tokenizer): 48 batches of 128. */
const LONG = [
  'You help with this page.',
  ...Array.from({ length: 300 }, (_, i) => `Rule ${i + 1}: keep item ${i + 1} of the list as the visitor wrote it.`),
].join('\n');

test('a stop as a step begins to read its long prompt ends llama.cpp’s reading a batch or two on, not at the prompt’s end', async () => {
  const agent = await start({
    model: {
      engine: 'wllama',
      url: '/models/tiny-qwen2_5.gguf',
      contextWindow: 8192,
      temperature: 0,
      completion: { n_predict: 4 },
    },
    instructions: LONG,
    // One step a run: the test reads the prompt's counts, not the answer.
    maxSteps: 1,
    dbName: uniqueDb('prefill-stop'),
  });
  const stop = new AbortController();
  const events: AgentEvent[] = [];
  let stoppedAt: { read: number; of: number } | undefined;
  for await (const event of agent.run('Hello', { signal: stop.signal })) {
    events.push(event);
    if (event.promptRead && !stop.signal.aborted) {
      expect(event.partial).toBe(true);
      stoppedAt = event.promptRead;
      stop.abort();
    }
  }
  expect(events.at(-1)?.endReason).toBe('aborted');
  // Stopped as the reading began: most of the prompt was still to read.
  expect(stoppedAt).toBeDefined();
  expect(stoppedAt!.of).toBeGreaterThan(5000);
  expect(stoppedAt!.read).toBeLessThan(stoppedAt!.of / 4);

  // The next message's prompt begins with the same instructions: llama.cpp finds in its cache what it read before it
  // stopped, and reads the rest.
  const { events: next } = await agent.send('Hello');
  const usage = next.find((event) => event.content?.role === 'model' && !event.partial)!.usage!;
  const held = usage.cachedPromptTokens!;
  console.info(
    `Stopped at ${stoppedAt!.read} of ${stoppedAt!.of} prompt tokens read; llama.cpp had read ${held} (the next step: ${held} cached + ${usage.promptTokens - held} prefilled).`,
  );
  expect(usage.promptTokens).toBeGreaterThan(stoppedAt!.of);
  // Read on to the prompt's end, it would hold all the instructions (6,102 tokens, seen with the prompt in one batch).
  expect(held).toBeLessThan(stoppedAt!.of / 4);
}, 120_000);

test('after such a stop, a read-ahead keeps what llama.cpp read before it stopped, and reads only the rest', async () => {
  const agent = await start({
    model: { engine: 'wllama', url: '/models/tiny-qwen2_5.gguf', contextWindow: 8192, temperature: 0 },
    instructions: LONG,
    maxSteps: 1,
    dbName: uniqueDb('prefill-stop-warmup'),
  });
  const stop = new AbortController();
  for await (const event of agent.run('Hello', { signal: stop.signal })) if (event.promptRead) stop.abort();
  const ahead = await agent.warmup();
  console.info(
    `After the stop, the read-ahead found ${ahead.cachedTokens} of ${ahead.promptTokens} tokens in llama.cpp's cache and read ${ahead.prefilledTokens}.`,
  );
  expect(ahead.status).toBe('read');
  // The stop left a batch or two (128 tokens each) read. Told nothing of it, the engine began where the last
  // step it knew of ended (nothing): its first piece, about 64 tokens, made llama.cpp drop the rest (76 kept).
  expect(ahead.cachedTokens).toBeGreaterThan(128);
  expect(ahead.cachedTokens + ahead.prefilledTokens).toBe(ahead.promptTokens);
}, 120_000);
