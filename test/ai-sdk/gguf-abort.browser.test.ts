/**
 * Stopping inpageModel's stream on a GGUF model (llama.cpp through wllama, the
 * tiny random-weight model that writes words until stopped): however it is
 * stopped (the AI SDK's abort signal, or a caller that cancels the stream), and after
 * however many deltas, no error is left uncaught, in the page or in the
 * worker, and the model answers the next step.
 */
import { generateText, streamText } from 'ai';
import { afterEach, describe, expect, test } from 'vitest';
import { inpageModel, type InpageLanguageModel } from '../../src/ai-sdk/index';
import type { ModelOptions } from '../../src/index';

const models: InpageLanguageModel[] = [];
const watches: (() => void)[] = [];
afterEach(async () => {
  await Promise.all(models.splice(0).map((model) => model.close()));
  for (const stop of watches.splice(0)) stop();
});

/** Gemma's vocabulary, random weights that write words, and no end of their own (each step has its length). */
const WRITER = {
  engine: 'wllama',
  url: '/models/tiny-gemma2-prose.gguf',
  toolFormat: 'gemma-tool-code',
  contextWindow: 2048,
  temperature: 1,
  seed: 7,
  completion: { top_k: 0, top_p: 1, min_p: 0, ignore_eos: true },
} as ModelOptions;

/**
 * A model in a worker that reports each error it leaves uncaught (fixtures/watched-worker.ts), and every
 * error left uncaught here or there: unhandled rejections and uncaught exceptions.
 */
function watchedModel(): { model: InpageLanguageModel; uncaught: string[] } {
  const uncaught: string[] = [];
  const channel = `watch-${crypto.randomUUID()}`;
  const line = new BroadcastChannel(channel);
  line.onmessage = ({ data }: MessageEvent<string>) => uncaught.push(`worker: ${data}`);
  const onRejection = (event: PromiseRejectionEvent) => uncaught.push(`page: unhandled rejection ${event.reason}`);
  const onError = (event: ErrorEvent) => uncaught.push(`page: uncaught ${event.error ?? event.message}`);
  window.addEventListener('unhandledrejection', onRejection);
  window.addEventListener('error', onError);
  watches.push(() => {
    line.close();
    window.removeEventListener('unhandledrejection', onRejection);
    window.removeEventListener('error', onError);
  });
  // Built in two steps, so that vite leaves the URL alone.
  const url = new URL('./fixtures/watched-worker.ts', import.meta.url);
  url.searchParams.set('watch', channel);
  const model = inpageModel(WRITER, { workerUrl: url.href });
  models.push(model);
  return { model, uncaught };
}

describe('a GGUF stream stopped midway', () => {
  test.each([10, 200])(
    'aborted after %i text deltas: the stream ends with an abort, nothing is left uncaught, and the next step is answered',
    async (after) => {
      const { model, uncaught } = watchedModel();
      const controller = new AbortController();
      const result = streamText({ model, prompt: 'Talk.', abortSignal: controller.signal, maxOutputTokens: 1000 });
      let deltas = 0;
      let last = '';
      for await (const part of result.fullStream) {
        last = part.type;
        if (part.type === 'text-delta' && ++deltas === after) controller.abort();
      }
      expect(deltas).toBe(after);
      expect(last).toBe('abort');
      // The next step takes its turn after the stopped one has ended in the worker.
      const next = await generateText({ model, prompt: 'Again.', maxOutputTokens: 8 });
      expect(next.text.length).toBeGreaterThan(0);
      expect(uncaught).toEqual([]);
    },
    60_000,
  );

  test.each([10, 200])(
    'a caller of doStream that cancels its stream after %i text deltas stops it: nothing is left uncaught, and the next step is answered',
    async (after) => {
      const { model, uncaught } = watchedModel();
      const { stream } = await model.doStream({
        prompt: [{ role: 'user', content: [{ type: 'text', text: 'Talk.' }] }],
        maxOutputTokens: 1000,
      });
      const reader = stream.getReader();
      let deltas = 0;
      while (deltas < after) if ((await reader.read()).value?.type === 'text-delta') deltas += 1;
      await reader.cancel();
      const next = await generateText({ model, prompt: 'Again.', maxOutputTokens: 8 });
      expect(next.text.length).toBeGreaterThan(0);
      expect(uncaught).toEqual([]);
    },
    60_000,
  );
});
