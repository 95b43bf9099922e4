/**
 * The constant part of the prompt read ahead, with the real instruction-tuned model (Qwen2.5-Coder-0.5B-Instruct,
 * Q4_K_M GGUF) in the agent's real worker: the README's to-do example, one request, first without a warmup (its
 * first step prefills the whole prompt), then in a second agent with createAgent({ warmup: true }) (the
 * instructions and the tool, as Qwen's own chat template writes them, are read once the model has loaded, and
 * the same request's first step prefills only its own tokens). The counts are llama.cpp's own (the step's
 * usage: cache_n and prompt_n). Each step writes one token (n_predict 1): what the model answers is
 * qwen-instruct.browser.test.ts's business; this one reads the prompt, at a few tokens a second on one thread.
 */
import { expect, test } from 'vitest';
import { createAgent, defineTool, z, type AgentEvent, type AgentOptions, type WarmupResult } from '../../../src/index';
import { hasInstructModel, INSTRUCT_MODEL_URL } from '../../real-model';

const model = { engine: 'wllama', url: INSTRUCT_MODEL_URL, completion: { n_predict: 1 } } as const;
const addTodo = defineTool({
  name: 'add_todo',
  description: 'Add an item to the to-do list on this page.',
  parameters: z.object({ text: z.string().min(1) }),
  execute: async () => ({ id: '1' }),
});
const options: AgentOptions = {
  model,
  instructions: 'You help with this page.',
  tools: [addTodo],
  storage: 'memory',
  maxSteps: 1,
};

/** The first model step: its prompt tokens, found in llama.cpp's cache and prefilled, and how long it took. */
function firstStep(events: AgentEvent[]) {
  const step = events.find((event) => event.content?.role === 'model' && !event.partial)!;
  const { promptTokens, cachedPromptTokens = 0 } = step.usage!;
  return {
    prompt: promptTokens,
    cached: cachedPromptTokens,
    prefilled: promptTokens - cachedPromptTokens,
    ms: step.timing!.ms,
  };
}

test.skipIf(!hasInstructModel())(
  'Qwen2.5-Coder 0.5B: without a warmup the first request prefills the whole prompt; after it, only its own tokens',
  async () => {
    const cold = await createAgent(options);
    let without: ReturnType<typeof firstStep>;
    try {
      without = firstStep((await cold.send('Remember to buy milk')).events);
    } finally {
      await cold.close();
    }
    expect(without.cached).toBe(0);

    const t0 = performance.now();
    const warm = await createAgent({ ...options, warmup: true });
    try {
      const read = await new Promise<WarmupResult>((resolve) =>
        warm.addEventListener('warmup', (event) => resolve((event as CustomEvent<WarmupResult>).detail), {
          once: true,
        }),
      );
      const loadedAndRead = performance.now() - t0;
      const withWarmup = firstStep((await warm.send('Remember to buy milk')).events);
      console.info(
        [
          `Qwen2.5-Coder 0.5B (${warm.info?.model.label}), "Remember to buy milk", README's to-do tool:`,
          `  without warmup: first step ${without.prompt} prompt tokens, ${without.cached} cached + ${without.prefilled} prefilled, ${(without.ms / 1000).toFixed(1)} s (1 token written)`,
          `  warmup: ${read.promptTokens} tokens read ahead (${read.prefilledTokens} prefilled, ${read.cachedTokens} cached) in ${(read.ms / 1000).toFixed(1)} s; load + warmup ${(loadedAndRead / 1000).toFixed(1)} s`,
          `  with warmup: first step ${withWarmup.prompt} prompt tokens, ${withWarmup.cached} cached + ${withWarmup.prefilled} prefilled, ${(withWarmup.ms / 1000).toFixed(1)} s (1 token written)`,
        ].join('\n'),
      );
      expect(read).toMatchObject({ status: 'read', cachedTokens: 0 });
      expect(read.prefilledTokens).toBe(read.promptTokens);
      // The same prompt, token for token: the prefix read ahead is exactly its start.
      expect(withWarmup.prompt).toBe(without.prompt);
      expect(withWarmup.cached).toBe(read.promptTokens);
      // "Remember to buy milk<|im_end|>\n<|im_start|>assistant\n": the request's own tokens only.
      expect(withWarmup.prefilled).toBe(without.prompt - read.promptTokens);
      expect(withWarmup.prefilled).toBeLessThan(16);
    } finally {
      await warm.close();
    }
  },
  1_200_000,
);
