/**
 * A conversation longer than the model's window goes on: the oldest turns
 * leave the prompt, and no turn fails with `context-overflow`. The window
 * guard counts with the engine's estimate; a tiny random-weight model writes
 * text that llama.cpp's tokenizer reads as many more tokens than the
 * estimate says (rare pieces of a 256k vocabulary), which once failed every
 * turn from the 27th on. The guard learns from llama.cpp's counts
 * (flow/token-scale.ts), and a step llama.cpp still finds too long is fitted
 * again by its count.
 */
import { expect, test } from 'vitest';
import { agentsClosedAfterEach, uniqueDb } from '../../page/helpers';

const start = agentsClosedAfterEach();

test('forty turns on a 1,024-token window: each is answered, the oldest turns leave the prompt', async () => {
  const agent = await start({ model: tinyModel(8), dbName: uniqueDb('long-conversation') });
  const ends: string[] = [];
  let promptTokens = 0;
  for (let i = 0; i < 40; i++) {
    const { events, error } = await agent.send('Hello');
    ends.push(error ? `${i}: ${error.code}: ${error.message}` : `${i}: ${events.at(-1)?.endReason}`);
    for (const event of events)
      if (event.usage && !event.partial) promptTokens = Math.max(promptTokens, event.usage.promptTokens);
  }
  expect(ends.filter((end) => !end.endsWith(': answer'))).toEqual([]);
  // The window filled (the guard had to drop turns), and no prompt went past it.
  expect(promptTokens).toBeGreaterThan(512);
  expect(promptTokens).toBeLessThanOrEqual(1024);
}, 300_000);

test("a message the estimate reads short: llama.cpp's count trims the conversation, the step is asked again and answered", async () => {
  const agent = await start({ model: tinyModel(2), dbName: uniqueDb('undercounted-message') });
  const sentence = 'Please keep this note about the garden, the fence and the apple trees for later. ';
  for (let i = 0; i < 5; i++) await agent.send(sentence.repeat(2));
  // Gothic letters: the estimate reads about two of them as a token, Gemma's tokenizer more than one token each.
  const { events, error } = await agent.send('𐌰𐌱𐌲𐌳 '.repeat(140));
  expect(error).toBeUndefined();
  const step = events.find((event) => event.usage && !event.partial)!;
  expect(step.endReason).toBe('answer');
  expect(step.notices?.map((notice) => notice.code)).toEqual(['context-recounted']);
  expect(step.notices?.[0].message).toMatch(
    /counted \d+ tokens in this step's prompt, more than its 1024-token window/,
  );
  expect(step.contextTrimmed).toBeGreaterThan(0);
  expect(step.usage!.promptTokens).toBeLessThanOrEqual(1024);
  // agent.contextUsage() counts as the guard does now: the conversation it says the next step sends (this one,
  // with the answer) comes close to llama.cpp's count of this step, not to the estimate's half of it.
  const usage = await agent.contextUsage();
  const said = usage.instructions + usage.tools + usage.history;
  console.info(`contextUsage: ${said} tokens, ${usage.free} free; llama.cpp read ${step.usage!.promptTokens}`);
  expect(said).toBeGreaterThan(step.usage!.promptTokens * 0.85);
  expect(said).toBeLessThan(step.usage!.promptTokens * 1.15);
  // The conversation goes on.
  const next = await agent.send(sentence);
  expect(next.error).toBeUndefined();
  expect(next.events.at(-1)?.endReason).toBe('answer');
}, 300_000);

function tinyModel(tokensPerStep: number) {
  return {
    engine: 'wllama' as const,
    url: '/models/tiny-gemma2.gguf',
    toolFormat: 'gemma-tool-code' as const,
    contextWindow: 1024,
    temperature: 1,
    seed: 5,
    completion: { top_k: 0, top_p: 1, min_p: 0, n_predict: tokensPerStep },
  };
}
