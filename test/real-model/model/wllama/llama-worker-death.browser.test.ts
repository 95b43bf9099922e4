/**
 * llama.cpp's own worker (the one wllama starts inside ours from a blob: URL) dies while our worker lives,
 * as an out-of-memory kill takes it on a phone, under the real instruction-tuned model (Qwen2.5-Coder-0.5B-
 * Instruct): the run ends with model-crashed, and the model loads again for the next request. The same on
 * tiny models, mid-decode, as a step starts and between runs: test/model/wllama/llama-worker-death.browser.test.ts.
 */
import { describe, expect, test } from 'vitest';
import { agentsClosedAfterEach, killableWorker, uniqueDb } from '../../../page/helpers';
import { eventsOf, storedTexts } from '../../../model/wllama/run-events';
import { hasInstructModel, INSTRUCT_MODEL_URL } from '../../real-model';

const start = agentsClosedAfterEach();

describe.skipIf(!hasInstructModel())(
  'llama.cpp’s own worker dies under a real model (Qwen2.5-Coder-0.5B-Instruct)',
  () => {
    test('mid-answer: the run ends with model-crashed, and the next request is answered', async () => {
      const worker = killableWorker();
      const progress: string[] = [];
      const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(1);
      let t = performance.now();
      const agent = await start({
        workerUrl: worker.workerUrl,
        model: {
          engine: 'wllama',
          url: INSTRUCT_MODEL_URL,
          completion: { n_predict: 24 },
          onProgress: (p) => progress.push(p.text),
        },
        instructions: 'You answer in one short sentence.',
        dbName: uniqueDb('llama-death-qwen'),
      });
      const log = [`loaded in ${seconds(t)} s: ${agent.info?.model.label}`];
      t = performance.now();
      let killed: Promise<number> | undefined;
      let said = '';
      const events = await eventsOf(
        agent.run('Say hello to me.'),
        (event) => {
          if (!event.partial) return;
          for (const part of event.content?.parts ?? []) if ('text' in part) said += part.text;
          if (!killed) {
            log.push(`first text after ${seconds(t)} s: ${JSON.stringify(said)}; llama.cpp's worker killed`);
            t = performance.now();
            killed = worker.killInner();
          }
        },
        300_000,
      );
      expect(await killed).toBe(1);
      const last = events.at(-1)!;
      log.push(
        `run ended ${seconds(t)} s after the kill: ${last.endReason}, ${last.error?.code}: ${last.error?.message}`,
      );
      expect(last).toMatchObject({ endReason: 'error', error: { code: 'model-crashed' } });
      expect(await storedTexts(agent)).toEqual(['Say hello to me.']);

      progress.length = 0;
      t = performance.now();
      const { text, events: next } = await agent.send('Say hello again.');
      log.push(`next request answered in ${seconds(t)} s (${next.at(-1)?.endReason}): ${JSON.stringify(text)}`);
      const downloads = progress.filter((text) => text.startsWith('Downloading')).length;
      const others = progress.filter((text) => !text.startsWith('Downloading'));
      log.push(`the load again said (besides ${downloads} download updates): ${others.join(' | ')}`);
      console.info(`Qwen2.5-Coder-0.5B-Instruct, llama.cpp's worker killed mid-answer:\n  ${log.join('\n  ')}`);
      expect(next.at(-1)).toMatchObject({ endReason: 'answer' });
      expect(text.length).toBeGreaterThan(0);
    }, 900_000);
  },
);
