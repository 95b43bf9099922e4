/**
 * The KV cache across the AI SDK's own steps: streamText drives inpageModel
 * over our web-llm engine on web-llm's real MLCEngine with a weightless
 * pipeline (test/model/prefill), in a real worker. web-llm's own rule decides
 * whether each step keeps the cache; the pipeline counts what it prefills with
 * Qwen3's real tokenizer. The raw output the AI SDK carries back from step to
 * step is what keeps it.
 */
import { stepCountIs, streamText, tool } from 'ai';
import { afterEach, expect, test } from 'vitest';
import { z as zod } from 'zod';
import { inpageModel, type InpageLanguageModel } from '../../src/ai-sdk/index';
import type { Prefill } from '../model/prefill/weightless-pipeline';
import type { PrefillEngineOptions } from '../model/fixtures/engines/prefill-webllm';

const models: InpageLanguageModel[] = [];
afterEach(async () => {
  await Promise.all(models.splice(0).map((model) => model.close()));
});

const here = import.meta.url;
const engineUrl = new URL('../model/fixtures/engines/prefill-webllm.ts', here).href;

const NAMES = [
  ['outline', 'list_steps', 'estimate', 'schedule', 'assign'],
  ['search_docs', 'read_page', 'fetch_prices', 'lookup_user', 'check_stock'],
  ['add_todo', 'send_email', 'book_room', 'order_item', 'set_reminder'],
  ['summarize', 'make_chart', 'export_csv', 'share_link', 'notify'],
].flat();
const CALLS: [string, object][] = [
  ['outline', { query: 'the trip' }],
  ['search_docs', { query: 'hotels' }],
  ['read_page', { query: 'hotel list', limit: 3 }],
  ['add_todo', { query: 'book the hotel' }],
  ['set_reminder', { query: 'check in' }],
  ['summarize', { query: 'the plan' }],
  ['export_csv', { query: 'the plan' }],
];
const call = ([name, args]: [string, object]) =>
  `<think>\nI will use ${name}.\n</think>\n\n<tool_call>\n{"name": "${name}", "arguments": ${JSON.stringify(args)}}\n</tool_call>`;

test('an 8-step streamText run with 20 tools prefills each token once: every step after the first extends the conversation web-llm holds', async () => {
  const channel = `prefill-${crypto.randomUUID()}`;
  const prefills: Prefill[] = [];
  const listener = new BroadcastChannel(channel);
  listener.onmessage = (message: MessageEvent<Prefill>) => prefills.push(message.data);
  const options: PrefillEngineOptions = {
    family: 'qwen3',
    channel,
    outputs: [
      ...CALLS.map(call),
      '<think>\nThat is everything.\n</think>\n\nYour trip is planned: the hotel is on your list and the plan is exported.',
    ],
  };
  const model = inpageModel({ engine: 'module', url: engineUrl, options });
  models.push(model);
  const ran: string[] = [];
  const tools = Object.fromEntries(
    NAMES.map((name) => [
      name,
      tool({
        description: `${name.replace('_', ' ')}: one of the twenty tools of this page, with a description of ordinary length.`,
        inputSchema: zod.object({ query: zod.string().describe('What to work on.'), limit: zod.number().optional() }),
        execute: async () => {
          ran.push(name);
          return { ok: true, tool: name };
        },
      }),
    ]),
  );
  const result = streamText({
    model,
    system: 'You plan trips for the person on this page.',
    prompt: 'Plan my trip to Lyon.',
    tools,
    stopWhen: stepCountIs(10),
  });
  expect((await result.text).trim()).toBe('Your trip is planned: the hotel is on your list and the plan is exported.');
  expect(ran).toEqual(CALLS.map(([name]) => name));
  const steps = await result.steps;
  expect(steps).toHaveLength(8);

  await expect.poll(() => prefills.length).toBe(8);
  expect(prefills.map((prefill) => prefill.reset)).toEqual([true, false, false, false, false, false, false, false]);
  // Each later step prefills only its new round (the tool's result and the reply header): the minimum.
  for (const prefill of prefills.slice(1)) expect(prefill.tokens).toBe(prefill.roundTokens);
  expect(prefills[0].tokens).toBeGreaterThan(1500);
  // web-llm's usage reaches the AI SDK's steps.
  expect(steps.map((step) => step.usage.inputTokens)).toEqual(prefills.map((prefill) => prefill.tokens));
  listener.close();
}, 60_000);
