/**
 * What the real-model benchmarks share: which pinned model a run uses (`--model=`), raw wllama as the peer
 * (llama.cpp alone, the model from the engine's cache), its streamed completion, and the prompt text our
 * engine writes, so that both read the very same text.
 */
import { Wllama } from '@wllama/wllama/esm/index.js';
import wasmUrl from '@wllama/wllama/esm/wasm/wllama.wasm?url';
import type { ModelRequest } from '../src/model/engine';
import { GGUF_CACHE } from '../src/model/engines/wllama/gguf-cache';
import type { Timings } from '../src/model/engines/wllama/wllama-completion';
import type { WllamaEngine } from '../src/model/engines/wllama/wllama-engine';
import { toWllamaRequest } from '../src/model/engines/wllama/wllama-request';
import type { PromptWriter } from '../src/model/engines/wllama/wllama-prompt';
import type { ToolFormat } from '../src/model/formats/tool-format';
import { pageOption } from './harness';

const REAL_MODELS: Record<string, { file: string; label: string }> = {
  '0.5b': { file: 'qwen2.5-coder-0.5b-instruct-q4_k_m.gguf', label: 'Qwen2.5-Coder-0.5B-Instruct Q4_K_M' },
  '1.5b': { file: 'qwen2.5-coder-1.5b-instruct-q4_k_m.gguf', label: 'Qwen2.5-Coder-1.5B-Instruct Q4_K_M' },
  gemma: { file: 'gemma-3-270m-q4_k_m.gguf', label: 'Gemma 3 270M Q4_K_M' },
};

/** The model this run names with `--model=` (the 0.5B by default), and its URL on the bench's server. */
export function chosenModel(): { choice: string; file: string; label: string; url: string } {
  const choice = pageOption('model') ?? '0.5b';
  const model = REAL_MODELS[choice];
  if (!model) throw new Error(`--model=${choice}: one of ${Object.keys(REAL_MODELS).join(', ')}`);
  return { choice, ...model, url: new URL(`/models/${model.file}`, location.href).href };
}

/** A chunk of llama.cpp's streamed completion, as wllama hands it on. */
export interface CompletionChunk {
  choices?: { text?: string }[];
  timings?: Timings;
}

const quiet = { ...console, debug: () => {}, log: () => {}, warn: () => {} };

/** llama.cpp through wllama alone: the peer a page would otherwise use. */
export async function rawWllama(url: string, threads: number): Promise<Wllama> {
  const wllama = new Wllama({ default: wasmUrl }, { logger: quiet });
  wllama.setCompat(null);
  // From the engine's cache where it kept the file, else from the server again.
  const file = (await (await caches.open(GGUF_CACHE)).match(url)) ?? (await fetch(url));
  await wllama.loadModel([await file.blob()], { n_ctx: 2048, n_parallel: 1, n_threads: threads });
  return wllama;
}

/** Raw wllama's streamed completion of `prompt` (llama.cpp's own parameters). */
export async function rawCompletion(
  wllama: Wllama,
  prompt: string,
  params: Record<string, unknown>,
): Promise<AsyncIterable<CompletionChunk>> {
  return (await wllama.createCompletion({
    prompt,
    temperature: 0,
    cache_prompt: true,
    stream: true,
    ...params,
  } as never)) as unknown as AsyncIterable<CompletionChunk>;
}

/** The prompt writer our engine loaded (its model's chat template or our markup), and the text it writes for a request. */
export function engineWriter(model: WllamaEngine): { writer: PromptWriter; prompt: (request: ModelRequest) => string } {
  const inner = model as unknown as { format: ToolFormat; prompt: PromptWriter };
  return {
    writer: inner.prompt,
    prompt: (request) =>
      toWllamaRequest(request, {
        format: inner.format,
        prompt: inner.prompt,
        contextWindow: 2048,
        temperature: 0,
        grammar: false,
      }).prompt,
  };
}
