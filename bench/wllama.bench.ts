/**
 * The wllama engine with a real model on this CPU: by default the demo's CPU model, Qwen2.5-Coder-0.5B-Instruct
 * (Q4_K_M GGUF from PyPI, its own chat template), or `--model=gemma` (Gemma 3 270M, the base model, our own
 * markup) or `--model=1.5b`; served at /models/ from this machine's model cache, one thread unless a row says.
 * Figures come from llama.cpp's own timings where they are about llama.cpp (prefill and decode speed), from the
 * clock where they are about what a page waits for (load, first token, a step, tokens streamed per second).
 *
 * - load: cold (Cache Storage emptied: download from this origin + load) and warm (from the cache);
 * - time to the first streamed token, with the prompt's prefix cached or not;
 * - prefill and decode tokens per second, with the grammar (a required call, GBNF from the first token) and
 *   without (the same prompt, no tools allowed): the ratio is what the grammar costs per token;
 * - decode through our engine against raw wllama on the same prompt text: tokens streamed per second from the
 *   first token to the last, the same tokens (temperature 0, no grammar), the same page;
 * - prefill and decode tokens per second with one thread and with two (the page is cross-origin isolated);
 * - the loop's overhead as a share of a real step: a run through the real loop (startRun, memory store) in
 *   this page, its wall time against llama.cpp's prompt + decode milliseconds;
 * - KV reuse: prompt tokens read, cached and prefilled per step of a 3-step run, and whether each step found
 *   the whole previous prompt in llama.cpp's cache; for Gemma, what a step after context trimming prefills
 *   with the sliding window's KV kept whole (our swa_full) and without;
 * - the peer: llama.cpp's own tool calling (wllama's createChatCompletion with `tools`, its templates, grammar
 *   and parser) on the same model and the same 20 page requests as ours: valid calls, right tool, right
 *   arguments, time per request.
 */
import type { Wllama } from '@wllama/wllama/esm/index.js';
import type { ModelDelta, ModelRequest } from '../src/model/engine';
import { GGUF_CACHE } from '../src/model/engines/wllama/gguf-cache';
import { WllamaEngine } from '../src/model/engines/wllama/wllama-engine';
import type { WllamaEngineOptions } from '../src/model/engines/wllama/wllama-options';
import { validateWithJsonSchema } from '../src/tools/validate-args';
import { DEFAULT_AGENT_NAME } from '../src/flow/agents';
import { defaultRequestProcessors } from '../src/flow/request-processors/build-request';
import { messageStart } from '../src/flow/message-start';
import { startRun } from '../src/flow/start-run';
import type { AgentContext } from '../src/flow/types';
import { MemorySessionStore } from '../src/session/memory-store';
import { pageInstructions, pageRequests, pageTools, score, type Score } from '../test/model/wllama/page-requests';
import { summarize, type BenchRow, type BenchSuite } from './harness';
import { chosenModel, engineWriter, rawCompletion, rawWllama } from './raw-wllama';

const { choice: CHOICE, file: FILE, label, url: MODEL } = chosenModel();
const LABEL = `${label}, 1 thread`;

const engine = (options: Partial<WllamaEngineOptions> = {}) =>
  new WllamaEngine({ urls: [MODEL], contextWindow: 2048, threads: 1, ...options });

async function generate(model: WllamaEngine, request: ModelRequest) {
  const started = performance.now();
  let first: number | undefined;
  const deltas: ModelDelta[] = [];
  for await (const delta of model.generate(request)) {
    if (first === undefined && (delta.type === 'text' || delta.type === 'tool-call'))
      first = performance.now() - started;
    deltas.push(delta);
  }
  return { deltas, ms: performance.now() - started, firstMs: first, timings: { ...model.lastTimings } };
}

/** Tokens written in each decode-speed sample: enough that the first token's own time is a small share. */
const DECODE_TOKENS = 64;
/** Tokens per second from the first streamed token to the last, through our engine. */
async function oursStreamed(model: WllamaEngine, request: ModelRequest): Promise<number> {
  let first: number | undefined;
  let written = 0;
  for await (const delta of model.generate(request)) {
    if (first === undefined && delta.type === 'text') first = performance.now();
    if (delta.type === 'finish') written = delta.usage?.completionTokens ?? 0;
  }
  return perSecond(written - 1, performance.now() - first!);
}

/** The same, through raw wllama's createCompletion on the same prompt text. */
async function rawStreamed(wllama: Wllama, prompt: string): Promise<number> {
  let first: number | undefined;
  let written = 0;
  const chunks = await rawCompletion(wllama, prompt, { max_tokens: DECODE_TOKENS, timings_per_token: true });
  for await (const chunk of chunks) {
    if (first === undefined && chunk.choices?.[0]?.text) first = performance.now();
    if (chunk.timings?.predicted_n) written = chunk.timings.predicted_n;
  }
  return perSecond(written - 1, performance.now() - first!);
}

const calls = (deltas: ModelDelta[]) => deltas.flatMap((delta) => (delta.type === 'tool-call' ? [delta.call] : []));
const errors = (deltas: ModelDelta[]) => deltas.filter((delta) => delta.type === 'tool-call-error').length;
const perSecond = (n = 0, ms = 0) => (ms > 0 ? (n * 1000) / ms : 0);

const suite: BenchSuite = async () => {
  if (!(await fetch(MODEL, { method: 'HEAD' })).ok)
    return [
      {
        group: 'wllama',
        name: `${LABEL} missing: run scripts/fetch-model.sh${CHOICE === '1.5b' ? ' 1.5b' : ''}`,
        median: 0,
        unit: 'ms',
      },
    ];
  const rows: BenchRow[] = [];
  const progress = (what: string) =>
    console.info(`bench: wllama: ${what}, ${rows.length} rows so far: ${JSON.stringify(rows.at(-1))}`);

  // ---- load, cold and warm
  const cold: number[] = [];
  const warm: number[] = [];
  for (let i = 0; i < 2; i++) {
    await caches.delete(GGUF_CACHE);
    for (const into of [cold, warm]) {
      const model = engine();
      const started = performance.now();
      await model.load();
      into.push(performance.now() - started);
      await model.dispose();
    }
  }
  rows.push({
    group: 'wllama',
    name: `load ${LABEL}, cold (download from this origin + load)`,
    median: summarize(cold).median,
    unit: 'ms',
    peer: { name: 'warm, from Cache Storage', median: summarize(warm).median },
    note: `${cold.length} loads each`,
  });

  const model = engine();
  await model.load();
  const system = { role: 'system' as const, content: pageInstructions };
  const ask = (text: string, toolChoice: ModelRequest['toolChoice'], maxTokens = 32): ModelRequest => ({
    messages: [system, { role: 'user', content: text }],
    tools: pageTools,
    toolChoice,
    sampling: { maxTokens },
  });

  progress('time to first token');
  // ---- time to first token: a new prefix, then the same prefix with a new question
  const firstCold: number[] = [];
  const firstWarm: number[] = [];
  for (let i = 0; i < 2; i++) {
    const fresh: ModelRequest = {
      messages: [
        { role: 'system', content: `Session ${i}. ${pageInstructions}` },
        { role: 'user', content: 'Say hello.' },
      ],
      tools: [],
      sampling: { maxTokens: 4 },
    };
    firstCold.push((await generate(model, fresh)).firstMs ?? NaN);
    fresh.messages[1] = { role: 'user', content: 'Say hello again.' };
    firstWarm.push((await generate(model, fresh)).firstMs ?? NaN);
  }
  rows.push({
    group: 'wllama',
    name: `time to first token, ${LABEL}, prompt not cached (~${model.lastTimings?.cache_n ?? '?'}+ tokens)`,
    median: summarize(firstCold).median,
    unit: 'ms',
    peer: { name: 'the same prefix cached, a new question', median: summarize(firstWarm).median },
  });

  progress('prefill and decode speed');
  // ---- prefill and decode speed, with and without the grammar
  const speed = {
    grammar: { prefill: [] as number[], decode: [] as number[] },
    free: { prefill: [] as number[], decode: [] as number[] },
  };
  for (let i = 0; i < 2; i++) {
    for (const [kind, choice] of [
      ['grammar', 'required'],
      ['free', 'none'],
    ] as const) {
      // A prompt llama.cpp has not seen, so that its prefill is measured whole.
      const request = ask(`Request ${i}${kind}: set the volume to ${i + 2}, please.`, choice, 24);
      request.messages[0] = { role: 'system', content: `${kind} ${i}. ${pageInstructions}` };
      const { timings } = await generate(model, request);
      speed[kind].prefill.push(perSecond(timings.prompt_n, timings.prompt_ms));
      speed[kind].decode.push(perSecond(timings.predicted_n, timings.predicted_ms));
    }
  }
  rows.push(
    {
      group: 'wllama',
      name: `prefill, ${LABEL}, under the grammar (tokens/s)`,
      median: summarize(speed.grammar.prefill).median,
      unit: 'tokens',
      peer: { name: 'without grammar', median: summarize(speed.free.prefill).median },
      note: "llama.cpp's prompt_n / prompt_ms",
    },
    {
      group: 'wllama',
      name: `decode, ${LABEL}, under the grammar (tokens/s)`,
      median: summarize(speed.grammar.decode).median,
      unit: 'tokens',
      peer: { name: 'without grammar', median: summarize(speed.free.decode).median },
      note: "llama.cpp's predicted_n / predicted_ms; the ratio is the grammar's cost per token",
    },
  );

  progress('decode through our engine against raw wllama');
  // ---- decode through our engine against raw wllama, on the same prompt text: the same tokens at temperature 0
  const raw = await rawWllama(MODEL, 1);
  const story: ModelRequest = {
    messages: [
      { role: 'system', content: pageInstructions },
      { role: 'user', content: 'Tell me a long story about a lighthouse keeper and the sea.' },
    ],
    tools: [],
    toolChoice: 'none',
    sampling: { maxTokens: DECODE_TOKENS },
  };
  const unconstrained = engine({ grammar: false });
  await unconstrained.load();
  const storyPrompt = engineWriter(unconstrained).prompt(story);
  const streamed = { ours: [] as number[], raw: [] as number[] };
  for (let i = 0; i < 3; i++) {
    streamed.ours.push(await oursStreamed(unconstrained, story));
    streamed.raw.push(await rawStreamed(raw, storyPrompt));
  }
  await unconstrained.dispose();
  rows.push({
    group: 'wllama',
    name: `decode, ${LABEL}: tokens streamed per second, ours (engine, no grammar)`,
    median: summarize(streamed.ours).median,
    unit: 'tokens',
    peer: { name: 'raw wllama, the same prompt text', median: summarize(streamed.raw).median },
    target: '≥ 0.98',
    note: `${DECODE_TOKENS} tokens each, from the first token to the last, 3 runs each, alternating`,
  });

  progress('one thread and two');
  // ---- prefill and decode speed with one thread and with two (the bench page is cross-origin isolated)
  const byThreads = new Map<number, { prefill: number[]; decode: number[] }>();
  for (const threads of [1, 2]) {
    const threaded = engine({ threads, grammar: false });
    await threaded.load();
    const speeds = { prefill: [] as number[], decode: [] as number[] };
    for (let i = 0; i < 2; i++) {
      // A prompt llama.cpp has not seen: its prefill is measured whole.
      const request = {
        ...story,
        messages: [
          { role: 'system' as const, content: `Threads ${threads}, run ${i}. ${pageInstructions}` },
          story.messages[1]!,
        ],
      };
      const { timings } = await generate(threaded, request);
      speeds.prefill.push(perSecond(timings.prompt_n, timings.prompt_ms));
      speeds.decode.push(perSecond(timings.predicted_n, timings.predicted_ms));
    }
    byThreads.set(threads, speeds);
    await threaded.dispose();
  }
  const one = byThreads.get(1)!;
  const two = byThreads.get(2)!;
  rows.push(
    {
      group: 'wllama',
      name: `prefill, ${FILE}, 2 threads (tokens/s)`,
      median: summarize(two.prefill).median,
      unit: 'tokens',
      peer: { name: '1 thread', median: summarize(one.prefill).median },
      note: `${navigator.hardwareConcurrency} cores; llama.cpp's prompt_n / prompt_ms`,
    },
    {
      group: 'wllama',
      name: `decode, ${FILE}, 2 threads (tokens/s)`,
      median: summarize(two.decode).median,
      unit: 'tokens',
      peer: { name: '1 thread', median: summarize(one.decode).median },
      note: "llama.cpp's predicted_n / predicted_ms",
    },
  );

  progress("the loop's overhead");
  // ---- the loop's overhead, and KV reuse over a 3-step run
  const steps: { prompt: number; cached: number; llamaMs: number }[] = [];
  const stepped = {
    ...model,
    info: model.info,
    load: async () => undefined,
    countTokens: (text: string) => model.countTokens(text),
    dispose: async () => undefined,
    generate: async function* (request: ModelRequest, signal?: AbortSignal) {
      yield* model.generate(request, signal);
      const t = model.lastTimings ?? {};
      steps.push({
        prompt: (t.prompt_n ?? 0) + (t.cache_n ?? 0),
        cached: t.cache_n ?? 0,
        llamaMs: (t.prompt_ms ?? 0) + (t.predicted_ms ?? 0),
      });
    },
  };
  const store = new MemorySessionStore();
  const session = await store.create({ appName: 'bench', userId: 'local' });
  const ctx: AgentContext = {
    sessionId: session.id,
    appName: 'bench',
    userId: 'local',
    store,
    engine: stepped,
    tools: new Map(pageTools.map((tool) => [tool.name, tool])),
    agents: new Map([[DEFAULT_AGENT_NAME, { name: DEFAULT_AGENT_NAME, instructions: pageInstructions }]]),
    rootAgent: DEFAULT_AGENT_NAME,
    runner: { run: async () => ({ ok: true, result: { content: { done: true } }, ms: 0 }) },
    hooks: {
      has: {},
      beforeModel: async () => undefined,
      afterModel: async () => undefined,
      beforeTool: async () => undefined,
      afterTool: async () => undefined,
      prepareCalls: async (_invocationId, calls) =>
        calls.map((call) => ({ ok: true, args: call.args, needsApproval: false })),
    },
    requestProcessors: defaultRequestProcessors,
    // Two rounds of calls and then an answer: three steps, each reading the last one's prompt and output.
    limits: { maxSteps: 3, maxToolCallsPerStep: 8, maxRepeatedCalls: 1, maxToolRounds: 2 },
  };
  const runStarted = performance.now();
  const run = startRun(
    ctx,
    (_s, history) => messageStart(history, 'Add milk to my list, then switch to dark mode', 'm1'),
    {
      ifBusy: 'fail',
      signal: new AbortController().signal,
      toolChoice: 'auto',
      emit: () => undefined,
    },
  );
  await run.done;
  const runMs = performance.now() - runStarted;
  const llamaMs = steps.reduce((sum, step) => sum + step.llamaMs, 0);
  rows.push(
    {
      group: 'wllama',
      name: `loop overhead, share of a real ${steps.length}-step run (${LABEL})`,
      median: (100 * (runMs - llamaMs)) / runMs,
      unit: '%',
      note: `run ${(runMs / 1000).toFixed(1)} s, llama.cpp prefill + decode ${(llamaMs / 1000).toFixed(1)} s; the rest is our prompt, grammar, reading, loop and wllama's messages`,
    },
    {
      group: 'prefill',
      name: `prompt tokens prefilled, ${steps.length}-step run, ${LABEL}`,
      median: steps.reduce((sum, step) => sum + step.prompt - step.cached, 0),
      unit: 'tokens',
      peer: { name: 'prompt tokens read', median: steps.reduce((sum, step) => sum + step.prompt, 0) },
      note: `per step, cached + prefilled: ${steps.map((step) => `${step.cached} + ${step.prompt - step.cached}`).join(', ')}; each step found the whole previous prompt cached: ${steps.every((step, i) => i === 0 || step.cached >= steps[i - 1]!.prompt)}`,
    },
  );

  // Gemma 3's sliding window only: the Qwen models attend to the whole window.
  if (CHOICE === 'gemma') await trimmedStep(rows, system);

  progress('ours on the 20 page requests');
  // ---- ours against llama.cpp's own tool calling, on the 20 page requests
  const ours: Score = { requests: 0, validCalls: 0, right: 0, rightTool: 0 };
  const oursMs: number[] = [];
  for (const request of pageRequests) {
    const { deltas, ms } = await generate(model, ask(request.text, 'required'));
    oursMs.push(ms);
    const valid = calls(deltas).every((call) => {
      const tool = pageTools.find((t) => t.name === call.name);
      return tool && validateWithJsonSchema(tool, call.args).ok;
    });
    score(ours, request, calls(deltas), errors(deltas) + (valid ? 0 : 1));
  }
  await model.dispose();

  progress("llama.cpp's own tool calling on them");
  const native = raw;
  const theirs: Score = { requests: 0, validCalls: 0, right: 0, rightTool: 0 };
  const theirsMs: number[] = [];
  const openAiTools = pageTools.map((tool) => ({
    type: 'function' as const,
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }));
  let theirsFailed = '';
  for (const request of pageRequests) {
    const started = performance.now();
    try {
      const response = await native.createChatCompletion({
        messages: [
          { role: 'system', content: pageInstructions },
          { role: 'user', content: request.text },
        ],
        tools: openAiTools,
        tool_choice: 'required',
        max_tokens: 64,
        temperature: 0,
      } as never);
      theirsMs.push(performance.now() - started);
      const message = (
        response as { choices: { message: { tool_calls?: { function: { name: string; arguments: string } }[] } }[] }
      ).choices[0].message;
      const read = (message.tool_calls ?? []).map((call) => {
        let args: unknown;
        try {
          args = JSON.parse(call.function.arguments);
        } catch {
          args = undefined;
        }
        return { name: call.function.name, args };
      });
      const valid = read.every((call) => {
        const tool = pageTools.find((t) => t.name === call.name);
        return tool && call.args !== undefined && validateWithJsonSchema(tool, call.args).ok;
      });
      score(theirs, request, read as { name: string; args: unknown }[], valid ? 0 : 1);
    } catch (error) {
      theirsMs.push(performance.now() - started);
      theirsFailed ||= error instanceof Error ? error.message : String(error);
      score(theirs, request, [], 1);
    }
  }
  await native.exit();
  const rate = (part: number, whole: number) => (100 * part) / whole;
  rows.push(
    {
      group: 'wllama',
      name: `20 page requests, ${LABEL}: valid calls, ours (%)`,
      median: rate(ours.validCalls, ours.requests),
      unit: '%',
      peer: { name: "llama.cpp's own tool calling", median: rate(theirs.validCalls, theirs.requests) },
    },
    {
      group: 'wllama',
      name: `20 page requests, ${LABEL}: right tool, ours (%)`,
      median: rate(ours.rightTool, ours.requests),
      unit: '%',
      peer: { name: "llama.cpp's own tool calling", median: rate(theirs.rightTool, theirs.requests) },
    },
    {
      group: 'wllama',
      name: `20 page requests, ${LABEL}: right tool and arguments, ours (%)`,
      median: rate(ours.right, ours.requests),
      unit: '%',
      peer: { name: "llama.cpp's own tool calling", median: rate(theirs.right, theirs.requests) },
    },
    {
      group: 'wllama',
      name: `20 page requests, ${LABEL}: time per request, ours`,
      median: summarize(oursMs).median,
      p95: summarize(oursMs).p95,
      unit: 'ms',
      peer: { name: "llama.cpp's own tool calling", median: summarize(theirsMs).median },
      ...(theirsFailed && { note: `llama.cpp's own: ${theirsFailed}` }),
    },
  );
  return rows;
};

export default suite;

/** What a step after context trimming prefills, Gemma 3's sliding window (512) kept whole or not. */
async function trimmedStep(rows: BenchRow[], system: ModelRequest['messages'][number]): Promise<void> {
  // ---- a step after context trimming, Gemma 3's sliding window (512) kept whole or not
  const history: ModelRequest['messages'] = [system];
  for (let i = 0; i < 12; i++)
    history.push(
      { role: 'user', content: `Note ${i}: ${'the shop opens at nine and closes at six on weekdays. '.repeat(3)}` },
      { role: 'assistant', content: 'Noted.', raw: 'Noted.' },
    );
  for (const swaFull of [true, false]) {
    const windowed = engine({ swaFull });
    await windowed.load();
    await generate(windowed, {
      messages: [...history, { role: 'user', content: 'And?' }],
      tools: pageTools,
      toolChoice: 'none',
      sampling: { maxTokens: 4 },
    });
    // Trimming drops the oldest turns in one block: the prompt keeps its instructions and tools, then jumps ahead.
    await generate(windowed, {
      messages: [system, ...history.slice(13), { role: 'user', content: 'And then?' }],
      tools: pageTools,
      toolChoice: 'none',
      sampling: { maxTokens: 4 },
    });
    const t = windowed.lastTimings ?? {};
    rows.push({
      group: 'prefill',
      name: `tokens prefilled by the step after trimming, ${LABEL}, sliding-window KV ${swaFull ? 'kept whole (ours)' : 'as llama.cpp keeps it'}`,
      median: t.prompt_n ?? 0,
      unit: 'tokens',
      note: `cached ${t.cache_n ?? 0} of ${(t.prompt_n ?? 0) + (t.cache_n ?? 0)}`,
    });
    await windowed.dispose();
  }
}
