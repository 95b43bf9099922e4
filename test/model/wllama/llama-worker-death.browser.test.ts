/**
 * llama.cpp's own worker (the one wllama starts inside ours from a blob: URL)
 * dies while our worker lives: what an out-of-memory kill takes on a phone.
 * The fixture worker (test/page/killable-worker.ts) terminates it on request,
 * as the browser would. The run must end at once with a clear error and the
 * person's message stored, and the model must come back from the cache for
 * the next request. Tiny random-weight models, so every machine runs it (the
 * real model's case: test/real-model/model/wllama/llama-worker-death.browser.test.ts).
 */
import { describe, expect, test } from 'vitest';
import { agentsClosedAfterEach, killableWorker, uniqueDb } from '../../page/helpers';
import { eventsOf, storedTexts } from './run-events';

const start = agentsClosedAfterEach();
/** Gemma's vocabulary, random weights that write words. */
const WRITER = '/models/tiny-gemma2-prose.gguf';

/** Writes on and on (200 tokens, never its end of turn), until stopped. */
const talker = (progress?: string[]) =>
  ({
    engine: 'wllama',
    url: WRITER,
    toolFormat: 'gemma-tool-code',
    contextWindow: 2048,
    temperature: 1,
    seed: 7,
    completion: { top_k: 0, top_p: 1, min_p: 0, n_predict: 200, ignore_eos: true },
    ...(progress && { onProgress: (p: { text: string }) => progress.push(p.text) }),
  }) as const;

describe('llama.cpp’s own worker dies', () => {
  test('mid-decode: the run ends with model-crashed, the message is stored, and the next request is answered by the model loaded again from the cache', async () => {
    const worker = killableWorker();
    const progress: string[] = [];
    const agent = await start({
      workerUrl: worker.workerUrl,
      model: talker(progress),
      dbName: uniqueDb('llama-death'),
    });
    let killed: Promise<number> | undefined;
    let loadedBefore = 0;
    const events = await eventsOf(agent.run('Talk for a long time.'), (event) => {
      if (!event.partial || killed) return;
      loadedBefore = progress.length;
      killed = worker.killInner();
    });
    expect(await killed).toBe(1);
    const last = events.at(-1)!;
    expect(last).toMatchObject({ endReason: 'error', error: { code: 'model-crashed' } });
    expect(last.error!.message).toMatch(/llama\.cpp's worker stopped .*send the message again/i);
    // Our worker lives on: the agent did not crash, only llama.cpp did.
    expect(agent.status).toBe('ready');
    expect(await storedTexts(agent)).toEqual(['Talk for a long time.']);
    // The run ended, so there is nothing to resume.
    expect(await eventsOf(agent.resume(), () => undefined)).toEqual([]);

    const next = await eventsOf(agent.run('Are you there?'), () => undefined);
    expect(next.at(-1)).toMatchObject({ endReason: 'answer' });
    expect(await storedTexts(agent)).toEqual(['Talk for a long time.', 'Are you there?']);
    // The model loaded again (the page was told), from this browser's cache, not from the network.
    const again = progress.slice(loadedBefore);
    expect(again.some((text) => /^Found .* in this browser's cache/.test(text))).toBe(true);
    expect(again.some((text) => /^Downloading/.test(text))).toBe(false);
  }, 120_000);

  test('as a step starts: the run ends with model-crashed, and the next request is answered', async () => {
    const worker = killableWorker();
    const agent = await start({ workerUrl: worker.workerUrl, model: talker(), dbName: uniqueDb('llama-death-start') });
    let killed: Promise<number> | undefined;
    const events = await eventsOf(agent.run('Talk for a long time.'), (event) => {
      if (event.author === 'user' && !killed) killed = worker.killInner();
    });
    expect(await killed).toBe(1);
    expect(events.at(-1)).toMatchObject({ endReason: 'error', error: { code: 'model-crashed' } });
    const { events: next } = await agent.send('Are you there?');
    expect(next.at(-1)).toMatchObject({ endReason: 'answer' });
    expect(await storedTexts(agent)).toEqual(['Talk for a long time.', 'Are you there?']);
  }, 120_000);

  test('between runs: once the death is noticed, the model loads again at once, and the next request is answered', async () => {
    const worker = killableWorker();
    const progress: string[] = [];
    const agent = await start({
      workerUrl: worker.workerUrl,
      model: talker(progress),
      dbName: uniqueDb('llama-death-idle'),
    });
    const loadedBefore = progress.length;
    expect(await worker.killInner()).toBe(1);
    // The death is noticed when the browser releases the worker's lifeline, a moment after it ends it (later on a
    // busy machine); a request sent before that is answering when it is noticed, the case of the test above.
    await expect
      .poll(() => progress.slice(loadedBefore).some((text) => /in this browser's cache/.test(text)), {
        timeout: 30_000,
      })
      .toBe(true);
    const next = await eventsOf(agent.run('Are you there?'), () => undefined);
    expect(next.at(-1)).toMatchObject({ endReason: 'answer' });
    expect(await storedTexts(agent)).toEqual(['Are you there?']);
  }, 120_000);
});
