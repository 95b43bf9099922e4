/**
 * What a visitor waits for before the first token on the CPU model (issue 32), Qwen2.5-Coder-0.5B-Instruct by
 * default (`--model=1.5b|gemma`), one thread, in this page, the engine against raw wllama on the same prompt
 * text with the same cache:
 *
 * - a first request after the prompt's constant part was read ahead (the engine's readAhead, what
 *   agent.warmup() runs): ours against raw wllama that read the same prefix text (n_predict 0) and then gets
 *   the whole prompt, so that it too prefills only the request's tokens;
 * - the same first request with nothing read ahead, for scale (the whole prompt prefilled);
 * - a follow-up request (the second of a conversation): ours against raw wllama given the first request's
 *   prompt and answer, then the follow-up's prompt.
 *
 * "First token" is the first text or call the engine streams (ours: through our prompt, grammar and reader),
 * the first text chunk for raw wllama. Raw wllama has no grammar; ours holds a step with tools from its first
 * token, so its figure includes the grammar's start.
 */
import { Wllama } from '@wllama/wllama/esm/index.js';
import wasmUrl from '@wllama/wllama/esm/wasm/wllama.wasm?url';
import type { ModelRequest } from '../src/model/engine';
import { GGUF_CACHE } from '../src/model/engines/wllama/wllama-files';
import { WllamaEngine, type Timings } from '../src/model/engines/wllama/wllama-engine';
import { toWllamaRequest } from '../src/model/engines/wllama/wllama-request';
import { readAheadText } from '../src/model/engines/wllama/wllama-read-ahead';
import type { PromptWriter } from '../src/model/engines/wllama/wllama-prompt';
import type { ToolFormat } from '../src/model/formats/tool-format';
import { pageInstructions, pageTools } from '../test/model/wllama/page-requests';
import { summarize, type BenchRow, type BenchSuite } from './harness';

const MODELS: Record<string, string> = {
  '0.5b': 'qwen2.5-coder-0.5b-instruct-q4_k_m.gguf',
  '1.5b': 'qwen2.5-coder-1.5b-instruct-q4_k_m.gguf',
  gemma: 'gemma-3-270m-q4_k_m.gguf',
};
const CHOICE = new URLSearchParams(location.search).get('model') ?? '0.5b';
const FILE = MODELS[CHOICE];
const MODEL = new URL(`/models/${FILE}`, location.href).href;
const SAMPLES = 3;

interface CompletionChunk {
  choices?: { text?: string }[];
  timings?: Timings;
}

const quiet = { ...console, debug: () => {}, log: () => {}, warn: () => {} };

/** The prompt text the engine writes for a request, and its writer (for the part read ahead). */
function writerOf(model: WllamaEngine): { prompt: (request: ModelRequest) => string; writer: PromptWriter } {
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

/** Milliseconds to the engine's first streamed text or call, and its raw output. */
async function oursFirst(model: WllamaEngine, request: ModelRequest): Promise<{ ms: number; raw: string }> {
  const started = performance.now();
  let first: number | undefined;
  let raw = '';
  for await (const delta of model.generate(request)) {
    if (
      first === undefined &&
      (delta.type === 'text' || delta.type === 'tool-call-start' || delta.type === 'tool-call')
    )
      first = performance.now() - started;
    if (delta.type === 'finish') raw = delta.raw ?? '';
  }
  return { ms: first ?? NaN, raw };
}

/** Raw wllama: reads `prompt` (n_predict 0), so that its cache holds it. */
async function rawRead(wllama: Wllama, prompt: string): Promise<void> {
  const chunks = (await wllama.createCompletion({
    prompt,
    n_predict: 0,
    temperature: 0,
    cache_prompt: true,
    stream: true,
  } as never)) as unknown as AsyncIterable<CompletionChunk>;
  for await (const _ of chunks);
}

/** Raw wllama: milliseconds to the first text chunk of `prompt`, and what it prefilled. */
async function rawFirst(wllama: Wllama, prompt: string, maxTokens = 8): Promise<{ ms: number; prefilled: number }> {
  const started = performance.now();
  let first: number | undefined;
  let prefilled = 0;
  const chunks = (await wllama.createCompletion({
    prompt,
    max_tokens: maxTokens,
    temperature: 0,
    cache_prompt: true,
    stream: true,
    timings_per_token: true,
  } as never)) as unknown as AsyncIterable<CompletionChunk>;
  for await (const chunk of chunks) {
    if (first === undefined && chunk.choices?.[0]?.text) first = performance.now() - started;
    if (chunk.timings?.prompt_n !== undefined) prefilled = chunk.timings.prompt_n;
  }
  return { ms: first ?? NaN, prefilled };
}

const suite: BenchSuite = async () => {
  if (!FILE) throw new Error(`--model=${CHOICE}: one of ${Object.keys(MODELS).join(', ')}`);
  if (!(await fetch(MODEL, { method: 'HEAD' })).ok)
    return [{ group: 'wllama', name: `${FILE} missing: run scripts/fetch-model.sh`, median: 0, unit: 'ms' }];
  const log = (what: string) => console.info(`bench: first token: ${what}`);
  const model = new WllamaEngine({ urls: [MODEL], contextWindow: 2048, threads: 1 });
  await model.load();
  const file = await (await caches.open(GGUF_CACHE)).match(MODEL);
  const raw = new Wllama({ default: wasmUrl }, { logger: quiet });
  raw.setCompat(null);
  await raw.loadModel([await (file ?? (await fetch(MODEL))).blob()], { n_ctx: 2048, n_parallel: 1, n_threads: 1 });
  const { prompt, writer } = writerOf(model);

  const first = { readAhead: [] as number[], cold: [] as number[], raw: [] as number[] };
  const followUp = { ours: [] as number[], raw: [] as number[] };
  const prefilled = { ours: [] as number[], raw: [] as number[], prefix: [] as number[] };
  for (let i = 0; i < SAMPLES; i++) {
    // A system text of its own each time, so that nothing of it is in either cache yet.
    const system = { role: 'system' as const, content: `Visit ${i}. ${pageInstructions}` };
    const request: ModelRequest = {
      messages: [system, { role: 'user', content: 'Remember to buy milk' }],
      tools: pageTools,
      toolChoice: 'auto',
      sampling: { maxTokens: 48 },
    };
    const prefix = readAheadText(request, writer)!;

    log(`sample ${i + 1}: ours, read ahead`);
    const read = await model.readAhead!(request);
    prefilled.prefix.push(read.promptTokens);
    const ours = await oursFirst(model, request);
    first.readAhead.push(ours.ms);
    prefilled.ours.push(model.lastTimings?.prompt_n ?? NaN);

    log(`sample ${i + 1}: raw wllama, the same prefix read, then the prompt`);
    await rawRead(raw, prefix);
    const rawOne = await rawFirst(raw, prompt(request));
    first.raw.push(rawOne.ms);
    prefilled.raw.push(rawOne.prefilled);

    log(`sample ${i + 1}: the follow-up`);
    const next: ModelRequest = {
      ...request,
      messages: [
        ...request.messages,
        { role: 'assistant', content: ours.raw, raw: ours.raw },
        { role: 'user', content: 'And switch to dark mode' },
      ],
    };
    followUp.ours.push((await oursFirst(model, next)).ms);
    // Raw wllama's cache: the first request's prompt and the same answer, then the follow-up's whole prompt.
    await rawRead(raw, prompt(request) + ours.raw);
    followUp.raw.push((await rawFirst(raw, prompt(next))).ms);

    log(`sample ${i + 1}: ours, nothing read ahead`);
    const cold: ModelRequest = {
      ...request,
      messages: [{ ...system, content: `Cold ${i}. ${pageInstructions}` }, request.messages[1]!],
    };
    first.cold.push((await oursFirst(model, cold)).ms);
  }
  await model.dispose();
  await raw.exit();

  const median = (values: number[]) => summarize(values).median;
  const rows: BenchRow[] = [
    {
      group: 'wllama',
      name: `time to first token, ${FILE}, a first request after the prefix was read ahead, ours`,
      median: median(first.readAhead),
      unit: 'ms',
      peer: { name: 'raw wllama, the same prefix cached', median: median(first.raw) },
      target: '≤ 1.2×',
      note: `prefix ${median(prefilled.prefix)} tokens read ahead; the request's step prefilled ${median(prefilled.ours)} (ours), ${median(prefilled.raw)} (raw); ${SAMPLES} samples`,
    },
    {
      group: 'wllama',
      name: `time to first token, ${FILE}, the same first request with nothing read ahead, ours`,
      median: median(first.cold),
      unit: 'ms',
      peer: { name: 'read ahead first', median: median(first.readAhead) },
    },
    {
      group: 'wllama',
      name: `time to first token, ${FILE}, a follow-up request, ours`,
      median: median(followUp.ours),
      unit: 'ms',
      peer: { name: 'raw wllama, the same prompt and cache', median: median(followUp.raw) },
      target: '≤ 1.2×',
    },
  ];
  return rows;
};

export default suite;
