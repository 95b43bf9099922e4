/**
 * The real model, Gemma 3 270M (Q4_K_M, the base model from PyPI), in the
 * agent's real worker: twenty page requests over five page tools, each one
 * step of the agent's model (agent.generate: the family's prompt and grammar,
 * llama.cpp's cache of the shared instructions). Loaded once for the file, one
 * CPU thread; the model decodes a few tokens a second here.
 *
 * A base model continues the pattern it is shown: the page's instructions show
 * one request answered with one call per tool, in Gemma's ```tool_code syntax
 * (page-requests.ts). It was never taught to answer after a tool's output.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createAgent, defineTool, z, type Agent } from '../../../src/index';
import type { ModelDelta } from '../../../src/model/engine';
import { hasRealModel, REAL_MODEL_URL } from '../../real-model';
import { pageInstructions, pageRequests, pageTools, score, type Score } from './page-requests';

/** What the page's tools did, in order. */
const ran: { name: string; args: Record<string, unknown> }[] = [];
const done = (name: string) => (args: Record<string, unknown>) => {
  ran.push({ name, args });
  return { done: true };
};
// The five page tools of page-requests.ts, as a page defines them.
const tools = [
  defineTool({
    name: 'add_todo',
    description: 'Add an item to the to-do list on this page.',
    parameters: z.object({ text: z.string().min(1) }),
    execute: done('add_todo'),
  }),
  defineTool({
    name: 'set_volume',
    description: 'Set the music player volume, from 0 (silent) to 10 (loudest).',
    parameters: z.object({ level: z.number().int().min(0).max(10) }),
    execute: done('set_volume'),
  }),
  defineTool({
    name: 'search_products',
    description: 'Search the shop on this page for products.',
    parameters: z.object({ query: z.string().min(1) }),
    execute: done('search_products'),
  }),
  defineTool({
    name: 'set_theme',
    description: 'Switch the page between its light and dark colours.',
    parameters: z.object({ mode: z.enum(['light', 'dark']) }),
    execute: done('set_theme'),
  }),
  defineTool({
    name: 'get_weather',
    description: 'Tell the current weather in a city.',
    parameters: z.object({ city: z.string().min(1) }),
    execute: done('get_weather'),
  }),
];

describe.skipIf(!hasRealModel())('Gemma 3 270M (the real base model) in the agent’s worker, five page tools', () => {
  let agent: Agent;

  beforeAll(async () => {
    agent = await createAgent({
      // The longest call is about 20 tokens; llama.cpp's n_predict bounds every step.
      model: { engine: 'wllama', url: REAL_MODEL_URL, completion: { n_predict: 24 } },
      instructions: pageInstructions,
      tools,
      storage: 'memory',
    });
  }, 120_000);
  afterAll(() => agent?.close());

  test('says what it runs on: Gemma’s tool_code format, one call per step, one CPU thread', () => {
    expect(agent.info?.model).toMatchObject({ engine: 'wllama', toolFormat: 'gemma-tool-code', threads: 1 });
    // No chat template in the GGUF: a base model, whose steps end at their first call.
    expect(agent.info?.model.notice).toMatch(/chat template/);
  });

  test('twenty page requests over five tools: every call valid; how many picked the right tool with the right arguments', async () => {
    const total: Score = { requests: 0, validCalls: 0, right: 0, rightTool: 0 };
    const wrong: string[] = [];
    for (const request of pageRequests) {
      const deltas: ModelDelta[] = [];
      for await (const delta of agent.generate({
        messages: [
          { role: 'system', content: pageInstructions },
          { role: 'user', content: request.text },
        ],
        tools: pageTools,
        toolChoice: 'required',
        sampling: { maxTokens: 24 },
      }))
        deltas.push(delta);
      const calls = deltas.flatMap((delta) => (delta.type === 'tool-call' ? [delta.call] : []));
      const errors = deltas.filter((delta) => delta.type === 'tool-call-error');
      // Under the grammar every call is one of the five tools with arguments its schema accepts.
      expect(errors, request.text).toEqual([]);
      expect(calls.length, request.text).toBeGreaterThan(0);
      const right = total.right;
      score(total, request, calls, errors.length);
      if (total.right === right) wrong.push(`${request.text} → ${calls[0].name}(${JSON.stringify(calls[0].args)})`);
    }
    expect(total.validCalls).toBe(20);
    // A figure, not a threshold.
    console.info(
      `Gemma 3 270M, 20 page requests: ${total.right} right tool with right arguments, ${total.rightTool} right tool, ${total.validCalls} valid. Wrong: ${wrong.join('; ')}`,
    );
  }, 600_000);
});
