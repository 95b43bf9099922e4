/**
 * What a visitor waits for before the first token on the CPU model (issue 32), Qwen2.5-Coder-0.5B-Instruct by
 * default (`--model=1.5b|gemma`), on the threads a page gets here by default, in this page, the engine against raw wllama on the same prompt
 * text with the same cache:
 *
 * - a first request after the prompt's constant part was read ahead (the engine's readAhead, what
 *   agent.warmup() runs): ours against raw wllama that read the same prefix text (n_predict 0) and then gets
 *   the whole prompt, so that it too prefills only the request's tokens;
 * - the same first request with nothing read ahead, for scale (the whole prompt prefilled);
 * - a follow-up request (the second of a conversation): ours against raw wllama given the first request's
 *   prompt and answer, then the follow-up's prompt.
 *
 * "First token" is llama.cpp's first token, clocked from the call that asked for it: from generate() for ours
 * (its prompt writing, grammar and reader included), from createCompletion() for raw wllama (first text chunk).
 * Raw wllama has no grammar; ours holds a step with tools from its first token, so its figure includes the
 * grammar's start. What the page then shows comes later for a call: its card once the tool's name is written
 * (a row of its own).
 */
import type { Wllama } from '@wllama/wllama/esm/index.js';
import type { ModelRequest } from '../src/model/engine';
import { WllamaEngine } from '../src/model/engines/wllama/wllama-engine';
import { readAheadText } from '../src/model/engines/wllama/wllama-read-ahead';
import { threadsFor } from '../src/model/engines/wllama/wllama-environment';
import { pageInstructions, pageTools } from '../test/model/wllama/page-requests';
import { pageOption, summarize, type BenchRow, type BenchSuite } from './harness';
import { chosenModel, engineWriter, rawCompletion, rawWllama } from './raw-wllama';

const { file: FILE, url: MODEL } = chosenModel();
const SAMPLES = Number(pageOption('samples') ?? 3);

/**
 * Milliseconds to llama.cpp's first token of the step (`ms`) and to the first text or call the engine streamed
 * (`shownMs`), and the step's raw output.
 */
async function oursFirst(
  model: WllamaEngine,
  request: ModelRequest,
): Promise<{ ms: number; shownMs: number; raw: string }> {
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
  return { ms: model.lastFirstTokenMs ?? NaN, shownMs: first ?? NaN, raw };
}

/** Raw wllama: reads `prompt` (n_predict 0), so that its cache holds it. */
async function rawRead(wllama: Wllama, prompt: string): Promise<void> {
  const chunks = await rawCompletion(wllama, prompt, { n_predict: 0 });
  for await (const _ of chunks);
}

/** Raw wllama: milliseconds to the first text chunk of `prompt`, and what it prefilled. */
async function rawFirst(wllama: Wllama, prompt: string, maxTokens = 8): Promise<{ ms: number; prefilled: number }> {
  const started = performance.now();
  let first: number | undefined;
  let prefilled = 0;
  const chunks = await rawCompletion(wllama, prompt, { max_tokens: maxTokens, timings_per_token: true });
  for await (const chunk of chunks) {
    if (first === undefined && chunk.choices?.[0]?.text) first = performance.now() - started;
    if (chunk.timings?.prompt_n !== undefined) prefilled = chunk.timings.prompt_n;
  }
  return { ms: first ?? NaN, prefilled };
}

const suite: BenchSuite = async () => {
  if (!(await fetch(MODEL, { method: 'HEAD' })).ok)
    return [{ group: 'wllama', name: `${FILE} missing: run scripts/fetch-model.sh`, median: 0, unit: 'ms' }];
  const log = (what: string) => console.info(`bench: first token: ${what}`);
  // The threads a visitor's page gets here by default (this page is cross-origin isolated), for both.
  const { threads } = threadsFor();
  const model = new WllamaEngine({ urls: [MODEL], contextWindow: 2048, threads });
  await model.load();
  const raw = await rawWllama(MODEL, threads);
  const { prompt, writer } = engineWriter(model);

  const first = { readAhead: [] as number[], shown: [] as number[], cold: [] as number[], raw: [] as number[] };
  let firstRaw = '';
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
    firstRaw = ours.raw;
    first.readAhead.push(ours.ms);
    first.shown.push(ours.shownMs);
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
      note: `prefix ${median(prefilled.prefix)} tokens read ahead; the request's step prefilled ${median(prefilled.ours)} (ours), ${median(prefilled.raw)} (raw); ${threads} thread${threads > 1 ? 's' : ''}; ${SAMPLES} samples`,
    },
    {
      group: 'wllama',
      name: `the same first request after read-ahead, ours: time until the page is shown something (a call's card once its tool's name is written, or text)`,
      median: median(first.shown),
      unit: 'ms',
      peer: { name: "llama.cpp's first token (ours)", median: median(first.readAhead) },
      note: `what the model wrote first: ${JSON.stringify(firstRaw.slice(0, 60))}`,
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
