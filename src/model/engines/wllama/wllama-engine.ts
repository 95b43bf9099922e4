/**
 * Any GGUF model through llama.cpp compiled to WebAssembly (@wllama/wllama),
 * in the current thread (our worker); wllama starts one worker of its own for
 * the wasm. What it adds to wllama: checks of the browser and the page's
 * policy before any download, the files downloaded with progress and abort and
 * kept in Cache Storage, a load that cannot hang, errors that say what
 * happened (llama.cpp's own words, from its log), and our tool-call protocol:
 * the family's prompt and reader, and its grammar in GBNF.
 *
 * Decoding is one llama.cpp slot, so each step's prompt, which extends the
 * last, is prefilled only past the prefix llama.cpp still holds; the usage of
 * each step says how many prompt tokens came from that cache.
 *
 * llama.cpp's worker is watched (wllama-inner-worker.ts): when it dies, the
 * step it was answering ends at once with model-crashed, and the model loads
 * again from the cache for the next one.
 */
import { LogLevel, Wllama } from '@wllama/wllama/esm/index.js';
import defaultWasmUrl from '@wllama/wllama/esm/wasm/wllama.wasm?url';
import { AgentError } from '../../../errors';
import { DEFAULT_CONTEXT_WINDOW } from '../../context-window';
import type { Usage } from '../../usage';
import { callChanceOf, type TokenChance } from '../../call-chance';
import type {
  CallChance,
  Choice,
  ChoiceRequest,
  FinishReason,
  ModelDelta,
  ModelEngine,
  ModelInfo,
  ModelProgress,
  ModelRequest,
  PromptRead,
  WarmupResult,
} from '../../engine';
import type { WllamaModelOptions } from './wllama-options';
import { toolFormatNamed } from '../../formats/registry';
import type { ToolFormat } from '../../formats/tool-format';
import { choiceGbnf, readChoice } from '../../gbnf/choice-gbnf';
import { ANY_TEXT_GBNF, structuralTagToGbnf } from '../../gbnf/structural-tag-gbnf';
import { ToolCallStream } from '../../readers/stream-tool-calls';
import { estimateTokens, tokenizerFamily } from '../../token-estimate';
import { checkEnvironment, gpuAdapterFound, threadsFor } from './wllama-environment';
import { formatOf, modelNameOf } from './wllama-family';
import { areCached, deleteCached, DOWNLOAD_SHARE, mb, sha256List, withModelFiles } from './wllama-files';
import { watchWorkerStartedBy, type LlamaWorkerWatch } from './wllama-inner-worker';
import { WllamaLog } from './wllama-log';
import {
  grammarParams,
  systemOf,
  toWllamaRequest,
  type CompletionParams,
  type WllamaRequestPlan,
} from './wllama-request';
import { ggufPrompt } from './gguf-prompt';
import type { PromptWriter } from './wllama-prompt';
import { nextPieceEnd, readAheadText } from './wllama-read-ahead';
import { OUTPUT_VOCABULARY } from '../../formats/output-vocabulary';

/**
 * The page's wllama options as the engine takes them: the URLs made absolute (the worker's base is not the page's),
 * and two knobs for tests and benchmarks.
 */
export type WllamaEngineOptions = Omit<WllamaModelOptions, 'engine' | 'url' | 'onProgress'> & {
  /** Absolute URLs of the GGUF file, or of a split model's files in order. */
  urls: string[];
  /** Keep a sliding-window model's whole KV (default true; see load()). */
  swaFull?: boolean;
  /** How long a load may go without a word from llama.cpp before it counts as stalled (default 90 s). */
  stallMs?: number;
};

const DEFAULT_STALL_MS = 90_000;

/** A chunk of llama.cpp's streamed completion, as wllama hands it on. */
interface CompletionChunk {
  choices?: {
    text?: string;
    finish_reason?: string | null;
    /** With n_probs: each token's most likely alternatives (OpenAI's shape). */
    logprobs?: { content?: { top_logprobs?: TokenChance[] }[] } | null;
  }[];
  timings?: Timings;
  /** With return_progress, after each batch of the prompt: `processed` counts from the prompt's start, cache included. */
  prompt_progress?: { total: number; cache: number; processed: number };
}

/** llama.cpp's own account of a completion. */
export interface Timings {
  cache_n?: number;
  prompt_n?: number;
  prompt_ms?: number;
  predicted_n?: number;
  predicted_ms?: number;
}

export class WllamaEngine implements ModelEngine {
  private wllama?: Wllama;
  private readonly log = new WllamaLog();
  /** llama.cpp's timings of the last completion (for benchmarks and the curious). */
  lastTimings?: Timings;
  /**
   * Milliseconds from the last generate() call to llama.cpp's first token, whatever the reader then made of it
   * (a call shows only once its tool's name is written): the model's own time to first token, for benchmarks.
   */
  lastFirstTokenMs?: number;
  private format: ToolFormat;
  private prompt?: PromptWriter;
  private oneCall = false;
  private loaded?: Promise<void>;
  private state: ModelInfo;
  /** Rejects when the llama.cpp this engine runs is gone (its worker died, or dispose() ended it); every wait on it races this. */
  private gone?: Promise<never>;
  private endLlama?: (error: AgentError) => void;
  /** Told how a load goes, a load again after a crash included. */
  private onProgress?: (progress: ModelProgress) => void;
  /** A load again began when llama.cpp's worker died, and no step has run since: a second death waits for a step. */
  private reloadedUnused = false;
  /** The text llama.cpp's cache holds, as we last fed it (a prompt and what the model wrote after it). */
  private held = '';

  constructor(private readonly options: WllamaEngineOptions) {
    if (!options.urls.length) throw new AgentError('invalid-options', 'model.url must be the address of a .gguf file.');
    const name = options.modelId ?? modelNameOf(options.urls[0]);
    this.format = toolFormatNamed(options.toolFormat ?? formatOf([name]));
    this.state = {
      engine: 'wllama',
      modelId: name,
      label: `${name} (llama.cpp, on this device)`,
      contextWindow: options.contextWindow ?? DEFAULT_CONTEXT_WINDOW,
      nativeToolCalls: false,
      toolFormat: this.format.name,
    };
  }

  get info(): ModelInfo {
    return this.state;
  }

  load(onProgress?: (progress: ModelProgress) => void, signal?: AbortSignal): Promise<void> {
    this.loaded ??= this.start(onProgress, signal).catch((error: unknown) => {
      this.loaded = undefined;
      throw error;
    });
    return this.loaded;
  }

  private async start(onProgress?: (progress: ModelProgress) => void, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw aborted();
    this.onProgress = onProgress;
    await checkEnvironment();
    const wasmUrl = new URL(this.options.wasmUrl ?? defaultWasmUrl, self.location.href).href;
    await checkWasm(wasmUrl, signal);
    const { threads, notice } = threadsFor(this.options.threads);
    // Files llama.cpp refuses leave the cache, and a refused copy from the cache is downloaded again once (wllama-files.ts).
    const fileOptions = {
      onProgress,
      signal,
      stallMs: this.options.downloadStallMs,
      sha256: sha256List(this.options.sha256, this.options.urls.length),
    };
    const { files, value: started } = await withModelFiles(this.options.urls, fileOptions, async (files) => {
      if (signal?.aborted) throw aborted();
      // Read from the file's header before llama.cpp reads it: a file refused for its chat template leaves the cache.
      const written = await ggufPrompt(files.blobs[0]!, {
        modelId: this.options.modelId,
        toolFormat: this.options.toolFormat,
        url: this.options.urls[0]!,
      });
      onProgress?.({
        progress: DOWNLOAD_SHARE,
        text: `Loading ${this.state.modelId} (${mb(files.bytes)}) into llama.cpp on ${threads === 1 ? 'one thread' : `${threads} threads`}…`,
        loadedBytes: files.bytes,
        totalBytes: files.bytes,
      });

      const onCpu = this.options.gpu === 'off' || !(await gpuAdapterFound());
      const wllama = new Wllama({ default: wasmUrl }, { logger: this.log.logger });
      wllama.setCompat(null); // no compatibility build from a CDN: the page's own files only
      this.wllama = wllama;
      const mark = this.log.mark;
      const { watch, loading } = await watchWorkerStartedBy(() =>
        wllama.loadModel(files.blobs, {
          n_ctx: this.state.contextWindow,
          n_threads: threads,
          n_parallel: 1,
          // On the CPU, llama.cpp reads the prompt a batch at a time between two of wllama's polls: a small batch
          // lets a stop take effect and the reading show its progress within seconds, not after the whole prompt
          // (a minute for 500 tokens on two wasm threads). A GPU reads in large batches best; it keeps its default.
          ...(onCpu && { n_batch: CPU_BATCH, n_ubatch: CPU_BATCH }),
          log_level: LogLevel.DEBUG,
          // A model with sliding-window attention (Gemma 3) keeps the whole context's KV: a request whose prefix
          // is older than the window can still reuse it (after context trimming), instead of prefilling everything.
          swa_full: this.options.swaFull ?? true,
          ...(this.options.gpu === 'off' && { n_gpu_layers: 0 }),
          // llama.cpp's own name for a template, so that it never parses the GGUF's (gguf-prompt.ts writes every prompt).
          jinja: false,
          chat_template: 'chatml',
        }),
      );
      try {
        await settleOrStall(loading, this.log, this.options.stallMs ?? DEFAULT_STALL_MS, signal, watch.gone);
        // wllama resolves even when llama.cpp's load failed (it does not read the result's `success`).
        const result = wllama.getLoadedContextInfo() as { success?: boolean; n_ctx?: number };
        if (result.success === false || !result.n_ctx) throw new Error('llama.cpp did not load the model');
      } catch (error) {
        await wllama.exit().catch(() => undefined);
        this.wllama = undefined;
        if (signal?.aborted) throw aborted();
        throw this.log.failure(error, mark, `Loading ${this.state.modelId} failed`);
      }
      return { wllama, watch, written };
    });
    const { wllama } = started;
    this.watch(wllama, started.watch, !files.notKept);
    const metadata = wllama.getModelMetadata().meta;
    const context = wllama.getLoadedContextInfo();
    const name = this.options.modelId ?? metadata['general.name'] ?? this.state.modelId;
    const { format, prompt, base, markup, notice: templateNotice } = started.written;
    this.format = format;
    this.prompt = prompt;
    this.oneCall = (this.options.callsPerStep ?? (base ? 'one' : 'any')) === 'one';
    const small = !base && billionsOf(metadata['general.size_label']) < SMALL_BILLIONS;
    const notices = [
      notice,
      templateNotice,
      small
        ? `${name} is a small model: a run makes one round of tool calls and then answers in words (createAgent({ maxToolRounds }) changes that).`
        : undefined,
      base && !this.options.callsPerStep
        ? `${name} has no chat template (a base model, not trained to chat): its turns are written in ${markup}'s markup, a step with tools opens with a worked example of a call and of an answer without one, and each step ends with its first call, since such a model does not end its turn by itself.`
        : undefined,
      files.notKept,
    ].filter(Boolean);
    const gpu = /webgpu/i.test(this.log.recent.join('\n')) && this.options.gpu !== 'off';
    this.state = {
      ...this.state,
      modelId: name,
      label: `${name} (llama.cpp, ${gpu ? 'WebGPU' : threads === 1 ? 'one CPU thread' : `${threads} CPU threads`})`,
      contextWindow: context.n_ctx,
      toolFormat: this.format.name,
      threads,
      ...(notices.length && { notice: notices.join(' ') }),
      ...(base && { baseModel: true }),
      ...(small && { toolRounds: 1 }),
    };
    onProgress?.({
      progress: 1,
      text: `${this.state.label} is ready.`,
      loadedBytes: files.bytes,
      totalBytes: files.bytes,
    });
  }

  /**
   * llama.cpp, loaded; else why not. It runs one request at a time: the engine pool gives each request its turn
   * (worker/engine-pool.ts), so nothing here waits for another.
   */
  private idle(): { wllama: Wllama; prompt: PromptWriter } {
    const { wllama, prompt } = this;
    if (!wllama || !prompt)
      throw new AgentError('model-failed', `The model ${this.state.modelId} is not loaded yet; call load() first.`);
    return { wllama, prompt };
  }

  async *generate(request: ModelRequest, signal?: AbortSignal): AsyncIterable<ModelDelta> {
    yield* this.step(request, '', signal);
  }

  /**
   * The model's turn `turn` (its own output, as the last step wrote it) goes on with another call: the prompt
   * is the step's plus the turn and a line break, which llama.cpp's cache holds, and the grammar holds the rest
   * to a call from its first token. The finish's `raw` is the whole turn.
   */
  async *continueTurn(request: ModelRequest, turn: string, signal?: AbortSignal): AsyncIterable<ModelDelta> {
    yield* this.step({ ...request, toolChoice: request.toolChoice ?? 'required' }, `${turn}${CALL_SEPARATOR}`, signal);
  }

  private async *step(request: ModelRequest, turn: string, signal?: AbortSignal): AsyncIterable<ModelDelta> {
    const started = performance.now();
    this.lastFirstTokenMs = undefined;
    // Loaded once: after a crash, the step waits for the load again (begun when the worker died, or here).
    if (this.prompt) await this.load(this.onProgress);
    this.reloadedUnused = false;
    const gone = this.gone;
    const { wllama, prompt } = this.idle();
    if (signal?.aborted) {
      yield { type: 'finish', reason: 'abort' };
      return;
    }
    const plan = this.plan(request, prompt);
    if (plan.notice) yield plan.notice;
    for await (const delta of this.decode(wllama, { ...plan, prompt: plan.prompt + turn }, started, signal, gone))
      yield delta.type === 'finish' && turn && delta.raw !== undefined ? { ...delta, raw: turn + delta.raw } : delta;
  }

  /**
   * Reads the prompt of `request` up to its last message's text (wllama-read-ahead.ts), in pieces past what
   * llama.cpp's cache holds already, each a completion that writes nothing (n_predict 0). The counts are
   * llama.cpp's own (timings.cache_n, prompt_n).
   */
  async readAhead(
    request: ModelRequest,
    signal?: AbortSignal,
    onRead?: (progress: PromptRead) => void,
  ): Promise<WarmupResult> {
    const t0 = performance.now();
    if (this.prompt) await this.load(this.onProgress);
    const gone = this.gone;
    const { wllama, prompt } = this.idle();
    if (signal?.aborted) throw readAheadAborted();
    const text = readAheadText(request, prompt);
    if (text === undefined)
      return {
        ...NOTHING_READ,
        status: 'unsupported',
        ms: performance.now() - t0,
        reason: "The request does not end with a user's message, or the model's prompt does not show where it begins.",
      };
    this.reloadedUnused = false;
    {
      const whole = this.countTokens(text);
      const charsPerToken = text.length / Math.max(1, whole);
      let pieceTokens = FIRST_PIECE_TOKENS;
      let cachedTokens: number | undefined;
      let prefilledTokens = 0;
      let promptTokens = 0;
      const held = commonLength(this.held, text);
      // The estimate of the text read so far, a piece at a time: each piece is estimated once.
      let estimatedRead = this.countTokens(text.slice(0, held));
      onRead?.({ read: 0, of: Math.max(0, whole - estimatedRead) });
      for (let end = held; end < text.length || cachedTokens === undefined;) {
        const start = end;
        end = nextPieceEnd(text, end, Math.round(pieceTokens * charsPerToken));
        estimatedRead += this.countTokens(text.slice(start, end));
        const timings = await this.readPrompt(wllama, text.slice(0, end), signal, gone);
        cachedTokens ??= timings.cache_n ?? 0;
        prefilledTokens += timings.prompt_n ?? 0;
        promptTokens = (timings.cache_n ?? 0) + (timings.prompt_n ?? 0);
        // What is left, estimated at the ratio llama.cpp's count of the text read so far bears to the estimate's.
        const left =
          end < text.length
            ? Math.round((Math.max(0, whole - estimatedRead) * promptTokens) / Math.max(1, estimatedRead))
            : 0;
        onRead?.({ read: prefilledTokens, of: prefilledTokens + left });
        // The next piece takes about as long as PIECE_MS at the speed this one was read.
        if (timings.prompt_n && timings.prompt_ms)
          pieceTokens = Math.max(FIRST_PIECE_TOKENS, (timings.prompt_n / timings.prompt_ms) * PIECE_MS);
      }
      return {
        status: 'read',
        promptTokens,
        prefilledTokens,
        cachedTokens: cachedTokens ?? 0,
        ms: performance.now() - t0,
      };
    }
  }

  /**
   * A few tokens held to one of the request's options (choiceGbnf), greedily, after the prompt a step of
   * the same messages would read: what llama.cpp's cache keeps of it is that prompt up to the question.
   */
  async choose(request: ChoiceRequest, signal?: AbortSignal, onRead?: (progress: PromptRead) => void): Promise<Choice> {
    const t0 = performance.now();
    const { wllama, prompt, gone } = await this.ready(signal);
    const text = prompt.write({ system: systemOf(request), tools: request.tools, messages: request.messages });
    const longest = Math.max(...request.options.map((option) => this.countTokens(option)));
    let answer = '';
    const timings = await this.shortCompletion(
      wllama,
      { prompt: text, n_predict: 2 * longest + 4, grammar: choiceGbnf(request.options), stop: prompt.stops },
      { what: 'choose', signal, gone, onRead, onChunk: (chunk) => (answer += chunk.choices?.[0]?.text ?? '') },
    );
    this.held = text + answer;
    const option = readChoice(answer, request.options);
    if (option === undefined)
      throw new AgentError(
        'model-failed',
        `${this.state.modelId} answered ${JSON.stringify(answer)}, none of ${request.options.join(', ')}, under a grammar that allows only those.`,
      );
    return { option, ...(timings && { usage: addUsage(undefined, timings) }), ms: performance.now() - t0 };
  }

  /**
   * The chance the step opens with a call, from llama.cpp's probabilities of its first token (n_probs) with no
   * grammar applied: the model's own inclination. Writes nothing; the step that follows reads the same prompt.
   */
  async callChance(
    request: ModelRequest,
    signal?: AbortSignal,
    onRead?: (progress: PromptRead) => void,
  ): Promise<CallChance> {
    const t0 = performance.now();
    const { wllama, prompt, gone } = await this.ready(signal);
    const plan = this.plan(request, prompt);
    let first: TokenChance[] = [];
    const timings = await this.shortCompletion(
      wllama,
      { prompt: plan.prompt, n_predict: 1, n_probs: FIRST_TOKEN_PROBS },
      {
        what: 'weigh a call',
        signal,
        gone,
        onRead,
        onChunk: (chunk) => (first = chunk.choices?.[0]?.logprobs?.content?.[0]?.top_logprobs ?? first),
      },
    );
    this.held = plan.prompt;
    const chance = plan.openers.length ? (callChanceOf(first, plan.openers) ?? 0.5) : 0;
    return { chance, ...(timings && { usage: addUsage(undefined, timings) }), ms: performance.now() - t0 };
  }

  /** llama.cpp, loaded (again, after a crash) and idle, for one of the engine's short requests. */
  private async ready(signal?: AbortSignal) {
    if (this.prompt) await this.load(this.onProgress);
    const gone = this.gone;
    const idle = this.idle();
    if (signal?.aborted) throw new AgentError('aborted', 'Aborted before the model read the prompt.');
    this.reloadedUnused = false;
    return { ...idle, gone };
  }

  private plan(request: ModelRequest, prompt: PromptWriter): WllamaRequestPlan {
    return toWllamaRequest(request, {
      format: this.format,
      prompt,
      contextWindow: this.state.contextWindow,
      temperature: this.options.temperature ?? 0,
      seed: this.options.seed,
      oneCall: this.oneCall,
      grammar: this.options.grammar ?? true,
    });
  }

  /** One completion of a few tokens, greedy, its chunks handed to `onChunk`: llama.cpp's timings of it. */
  private async shortCompletion(
    wllama: Wllama,
    params: Record<string, unknown>,
    how: {
      what: string;
      signal?: AbortSignal;
      gone?: Promise<never>;
      onRead?: (progress: PromptRead) => void;
      onChunk(chunk: CompletionChunk): void;
    },
  ): Promise<Timings | undefined> {
    const { signal, gone } = how;
    const mark = this.log.mark;
    let timings: Timings | undefined;
    try {
      const completion = wllama.createCompletion({
        ...params,
        temperature: 0,
        cache_prompt: true,
        stream: true,
        timings_per_token: true,
        return_progress: true,
        ...(signal && { abortSignal: signal }),
      } as never) as unknown as Promise<AsyncIterable<CompletionChunk>>;
      const chunks = await orGone(completion, gone);
      for await (const chunk of readOnWhenStopped(chunks, () => undefined, gone)) {
        if (chunk.timings) timings = this.lastTimings = chunk.timings;
        if (chunk.prompt_progress) {
          const { total, cache, processed } = chunk.prompt_progress;
          if (total > cache) how.onRead?.({ read: processed - cache, of: total - cache });
        } else how.onChunk(chunk);
      }
    } catch (error) {
      if (error instanceof AgentError && error.code === 'model-crashed') throw error;
      if (signal?.aborted || (error instanceof Error && error.name === 'AbortError'))
        throw new AgentError('aborted', `Aborted while the model read the prompt to ${how.what}.`);
      throw this.log.failure(error, mark, `${this.state.modelId} could not ${how.what}`);
    }
    return timings;
  }

  /** One completion that reads `prompt` and writes nothing: llama.cpp's timings of it. */
  private async readPrompt(wllama: Wllama, prompt: string, signal?: AbortSignal, gone?: Promise<never>) {
    const mark = this.log.mark;
    let timings: Timings = {};
    try {
      const completion = wllama.createCompletion({
        prompt,
        n_predict: 0,
        temperature: 0,
        cache_prompt: true,
        stream: true,
        timings_per_token: true,
        ...(signal && { abortSignal: signal }),
      } as never) as unknown as Promise<AsyncIterable<CompletionChunk>>;
      const chunks = await orGone(completion, gone);
      for await (const chunk of readOnWhenStopped(chunks, () => undefined, gone))
        if (chunk.timings) timings = this.lastTimings = chunk.timings;
    } catch (error) {
      if (error instanceof AgentError && error.code === 'model-crashed') throw error;
      if (signal?.aborted || (error instanceof Error && error.name === 'AbortError')) throw readAheadAborted();
      throw this.log.failure(error, mark, `Reading ${this.state.modelId}'s prompt ahead failed`);
    } finally {
      // What llama.cpp keeps of it: the prompt as far as it read (all of it, unless aborted).
      this.held = prompt;
    }
    return timings;
  }

  private async *decode(
    wllama: Wllama,
    plan: WllamaRequestPlan,
    started: number,
    signal?: AbortSignal,
    gone?: Promise<never>,
  ): AsyncGenerator<ModelDelta> {
    const stream = new ToolCallStream({
      vocabulary: OUTPUT_VOCABULARY,
      tools: plan.tools,
      allowed: plan.toolNames,
      example: plan.format.example,
    });
    let raw = '';
    let finish: FinishReason = 'stop';
    let usage: Usage | undefined;
    let params: CompletionParams = plan.params;
    let strict = false;
    // Without a grammar to stop it, a step that ends with its first call is cut where that call closes.
    const firstCall = this.oneCall && !plan.params.grammar ? plan.firstCallEnd : undefined;
    const cut = new AbortController();
    // A step that goes on in a new completion (after bytes that are not UTF-8) keeps to the step's token limit.
    const limit = tokenLimit(this.options.completion, plan.params.max_tokens, this.state.contextWindow);
    let generated = 0;
    let left: number | undefined;
    let replaced = 0;
    for (;;) {
      const mark = this.log.mark;
      let timings: Timings | undefined;
      let received = 0;
      try {
        const abortSignal = signal ? AbortSignal.any([signal, cut.signal]) : cut.signal;
        const completion = wllama.createCompletion({
          ...this.options.completion,
          prompt: plan.prompt + raw,
          ...params,
          stop: [...params.stop, ...stopsOf(this.options.completion)],
          stream: true,
          // A completion that ends early (cut by us, or by a piece llama.cpp could not hand over) never sees
          // llama.cpp's last chunk: its usage, and the tokens it wrote, come from the chunks before.
          timings_per_token: true,
          return_progress: true,
          ...(left !== undefined && { n_predict: left }),
          abortSignal,
        } as never) as unknown as Promise<AsyncIterable<CompletionChunk>>;
        const chunks = await orGone(completion, gone);
        for await (const chunk of readOnWhenStopped(chunks, () => cut.abort(), gone)) {
          // Read on after the cut, so that wllama's abort error reaches the catch below (a break would leave it unhandled).
          if (cut.signal.aborted) continue;
          if (chunk.timings) timings = this.lastTimings = chunk.timings;
          if (chunk.prompt_progress) {
            const { total, cache, processed } = chunk.prompt_progress;
            if (total > cache) yield { type: 'prompt-read', read: processed - cache, of: total - cache };
            continue;
          }
          const choice = chunk.choices?.[0];
          let text = choice?.text ?? '';
          received++;
          if (choice?.text) this.lastFirstTokenMs ??= performance.now() - started;
          const end = firstCall?.(raw, text);
          if (end !== undefined) text = text.slice(0, end);
          raw += text;
          if (text) for (const piece of stream.push(text)) yield piece;
          if (end !== undefined) {
            cut.abort();
            continue;
          }
          if (choice?.finish_reason === 'length') finish = 'length';
        }
        this.held = plan.prompt + raw;
        usage = addUsage(usage, timings);
        break;
      } catch (error) {
        this.held = plan.prompt + raw;
        usage = addUsage(usage, timings);
        if (error instanceof AgentError && error.code === 'model-crashed') throw error;
        if (cut.signal.aborted && !signal?.aborted) break;
        if (signal?.aborted || (error instanceof Error && error.name === 'AbortError')) {
          finish = 'abort';
          break;
        }
        const failure = this.log.decodeFailure(error, mark, this.state.modelId);
        if (failure.recovery === 'replace') {
          // A model's bytes never fail a step. llama.cpp hands text to JavaScript as JSON, and wllama's glue writes
          // each result with nlohmann's dump() in its strict mode (action_get_result in its cpp/wllama-context.h),
          // where llama.cpp's own server writes with error_handler_t::replace. llama.cpp holds back only a
          // character cut at the end of the text (validate_utf8), so a piece with a lone continuation byte, a
          // surrogate, an overlong form or a byte over F4 makes dump() throw, and the piece is lost (its result
          // was already taken from llama.cpp's queue). A grammar does not prevent it: under the step's grammar
          // such bytes still came through (a negated class, as in a JSON string, takes code points that are not
          // characters). So one U+FFFD stands for the lost piece, and decoding goes on after it in a new
          // completion (llama.cpp's cache holds the prompt and the text before it), within the step's token limit.
          raw += REPLACEMENT;
          for (const piece of stream.push(REPLACEMENT)) yield piece;
          if (!replaced++)
            yield {
              type: 'notice',
              code: 'invalid-utf8',
              message: `${failure.error.message}. Such a piece cannot reach JavaScript through wllama: each is written as U+FFFD (${REPLACEMENT}), and the step went on after it.`,
            };
          generated += (timings?.predicted_n ?? received) + 1;
          left = limit - generated;
          if (left > 0) continue;
          finish = 'length';
          break;
        }
        const stricter = !strict && failure.recovery === 'strict-grammar' ? strictGrammar(plan, raw) : undefined;
        if (!stricter) throw failure.error;
        // Go on from the text so far under a grammar that holds every token from here.
        strict = true;
        params = { ...plan.params, grammar_lazy: undefined, grammar_triggers: undefined, ...stricter };
        yield {
          type: 'notice',
          code: 'grammar-strict',
          message: `${failure.error.message}. The step went on from there under a grammar that holds every token.`,
        };
      }
    }
    const rest = stream.end(finish);
    if (rest.reasoning) yield { type: 'reasoning', text: rest.reasoning };
    if (rest.text) yield { type: 'text', text: rest.text };
    for (const call of rest.calls) yield { type: 'tool-call', call };
    for (const error of rest.errors) yield { type: 'tool-call-error', ...error };
    const calls = rest.calls.length + rest.errors.length;
    yield {
      type: 'finish',
      reason: finish === 'abort' || finish === 'length' ? finish : calls ? 'tool-calls' : 'stop',
      ...(usage && { usage }),
      raw,
    };
  }

  countTokens(text: string): number {
    return estimateTokens(text, tokenizerFamily(this.state.modelId));
  }

  async isCached(): Promise<boolean> {
    return areCached(this.options.urls);
  }

  async deleteCache(): Promise<void> {
    await deleteCached(this.options.urls);
  }

  async dispose(): Promise<void> {
    const wllama = this.wllama;
    this.wllama = undefined;
    this.loaded = undefined;
    this.held = '';
    this.endLlama?.(new AgentError('closed', 'The model was unloaded: its agent was closed.'));
    await wllama?.exit();
  }

  /**
   * Once llama.cpp's worker is gone, the step it was answering ends with model-crashed, and the model loads again at
   * once, so that the next request finds it ready; the files come from the cache. A failure of that load is the next
   * step's error (which loads again). A worker that dies again before any step ran on it is loaded again only by the
   * next step: a browser that keeps stopping it for want of memory does not see it come back in a loop.
   */
  private watch(wllama: Wllama, watch: LlamaWorkerWatch, cached: boolean): void {
    let end!: (error: AgentError) => void;
    const gone = new Promise<never>((_, reject) => (end = reject));
    gone.catch(() => undefined);
    this.gone = gone;
    this.endLlama = end;
    void watch.gone.then(() => {
      if (this.wllama !== wllama) return; // ended by dispose()
      end(
        new AgentError(
          'model-crashed',
          `llama.cpp's worker stopped (the browser ended it: out of memory, or terminated), and the step ${this.state.modelId} was answering ended with it. The model is loading again (${cached ? "from this browser's cache" : "downloading it again: this browser's cache could not keep it"}); send the message again.`,
        ),
      );
      this.wllama = undefined;
      this.gone = undefined;
      this.endLlama = undefined;
      this.loaded = undefined;
      this.held = '';
      void wllama.exit().catch(() => undefined);
      if (this.reloadedUnused) return;
      this.reloadedUnused = true;
      void this.load(this.onProgress).catch(() => undefined);
    });
  }
}

/** A wait on llama.cpp that ends when its worker is gone (a dead worker's calls never settle). */
function orGone<T>(waiting: Promise<T>, gone: Promise<never> | undefined): Promise<T> {
  if (!gone) return waiting;
  waiting.catch(() => undefined); // lost the race: its rejection, if it ever comes, is nobody's
  return Promise.race([waiting, gone]);
}

/**
 * wllama's chunks for a reader that may stop early. Its iterator rejects a
 * promise it made before the stop with llama.cpp's abort error, so a stop by
 * return() (what for-await does when our generator is closed: a caller that
 * aborts or stops reading) would leave that error unhandled in the worker.
 * A stop here aborts the completion and reads on to its end, that error
 * included, so the next step starts after llama.cpp has let go of this one.
 */
function readOnWhenStopped<T>(chunks: AsyncIterable<T>, abort: () => void, gone?: Promise<never>): AsyncIterable<T> {
  const iterator = chunks[Symbol.asyncIterator]();
  return {
    [Symbol.asyncIterator]: () => ({
      next: () => orGone(iterator.next(), gone),
      async return() {
        abort();
        try {
          while (!(await orGone(iterator.next(), gone)).done);
        } catch {
          // The abort error: the completion has ended (or llama.cpp's worker is gone).
        }
        return { done: true, value: undefined };
      },
    }),
  };
}

/** Stop strings the page added in model.completion (they add to the template's own). */
function stopsOf(completion: Record<string, unknown> | undefined): string[] {
  const stop = completion?.stop;
  return typeof stop === 'string' ? [stop] : Array.isArray(stop) ? stop.filter((item) => typeof item === 'string') : [];
}

/**
 * A prompt read ahead goes in pieces because llama.cpp reads a piece without a pause: a piece is what an abort
 * waits for at most. Each piece after the first is sized to take about PIECE_MS at the speed of the one before
 * (a piece costs one more completion request besides); the first, and any piece, is at least
 * FIRST_PIECE_TOKENS (estimated). Qwen2.5-Coder 0.5B reads 1.3–3.9 tokens/s on one thread of the 2-core test
 * machine under load, so 64 tokens take 20–50 s there; in pieces it read 178 tokens in 136 s and 80 s, and in one
 * completion 177 tokens in 121 s and 102 s (interleaved, load average 7): no cost beyond the machine's noise.
 */
const FIRST_PIECE_TOKENS = 64;
const PIECE_MS = 1000;

const NOTHING_READ = { promptTokens: 0, prefilledTokens: 0, cachedTokens: 0 } as const;

function readAheadAborted(): AgentError {
  return new AgentError('aborted', 'Reading the prompt ahead was aborted.');
}

/** How many characters two texts share from their start. */
function commonLength(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** Between two calls of one turn: what the formats' grammars allow there (white space), and what the models write. */
const CALL_SEPARATOR = '\n';

/** Tokens of the first position whose probabilities llama.cpp reports (callChance): enough to hold almost all the mass. */
const FIRST_TOKEN_PROBS = 20;

/** U+FFFD, the replacement character: what a piece of output that is not UTF-8 becomes. */
const REPLACEMENT = '\ufffd';

/**
 * Prompt tokens llama.cpp reads at a time on the CPU (wllama polls between two batches). Gemma 3 270M on one
 * thread read 427 tokens at 16 tokens/s in batches of 128 as in one batch; in batches of 64, 7% slower.
 */
const CPU_BATCH = 128;

/** The most tokens a step writes: the page's n_predict (its -1, no limit, is the context window), else max_tokens. */
function tokenLimit(completion: Record<string, unknown> | undefined, maxTokens: number, contextWindow: number): number {
  const own = completion?.n_predict;
  if (typeof own !== 'number') return maxTokens;
  return own < 0 ? contextWindow : own;
}

/** The grammar to go on under: the step's, constrained from the text so far; or any whole characters without tools. */
function strictGrammar(plan: WllamaRequestPlan, raw: string): Partial<CompletionParams> | undefined {
  if (!plan.structuralTag) return { grammar: ANY_TEXT_GBNF };
  try {
    return grammarParams(structuralTagToGbnf(plan.structuralTag, { full: true, after: raw }));
  } catch {
    return undefined;
  }
}

/** A step's usage from llama.cpp's timings, summed over the completions it took. */
function addUsage(before: Usage | undefined, timings: Timings | undefined): Usage | undefined {
  if (!timings) return before;
  const cached = timings.cache_n ?? 0;
  const prefilled = timings.prompt_n ?? 0;
  if (!before)
    return { promptTokens: cached + prefilled, completionTokens: timings.predicted_n ?? 0, cachedPromptTokens: cached };
  return { ...before, completionTokens: before.completionTokens + (timings.predicted_n ?? 0) };
}

/** The wasm is fetched by wllama's inner worker, whose failures never reach us: ask for it first. */
async function checkWasm(url: string, signal?: AbortSignal): Promise<void> {
  let status: number;
  try {
    const timeout = AbortSignal.timeout(15_000);
    status = (await fetch(url, { method: 'HEAD', signal: signal ? AbortSignal.any([signal, timeout]) : timeout }))
      .status;
  } catch (error) {
    if (signal?.aborted) throw aborted();
    throw new AgentError(
      'download-failed',
      `llama.cpp's WebAssembly file ${url} could not be fetched (${error instanceof Error ? error.message : String(error)}).`,
      { cause: error },
    );
  }
  if (status >= 400)
    throw new AgentError(
      'download-failed',
      `llama.cpp's WebAssembly file is not at ${url} (HTTP ${status}). Serve wllama.wasm from inpage-agent's dist/chunks/ beside the worker's chunks, or pass its address as model.wasmUrl.`,
      { details: { url, status } },
    );
}

/**
 * The load, or an error if llama.cpp writes nothing for `stallMs` (a load that will never settle:
 * a policy that stopped its worker, a wasm that never arrives), or if its worker dies, or the abort.
 */
async function settleOrStall(
  loading: Promise<void>,
  log: WllamaLog,
  stallMs: number,
  signal?: AbortSignal,
  gone?: Promise<void>,
): Promise<void> {
  let timer: ReturnType<typeof setInterval> | undefined;
  let onAbort: (() => void) | undefined;
  const watch = new Promise<never>((_, reject) => {
    timer = setInterval(
      () => {
        if (performance.now() - log.lastActivity < stallMs) return;
        reject(
          new AgentError(
            'model-failed',
            `Loading the model stalled: llama.cpp has said nothing for ${Math.round(stallMs / 1000)} s. Its own worker may have been stopped by the page's Content-Security-Policy (it needs script-src 'wasm-unsafe-eval' and worker-src blob:), or its WebAssembly file never arrived.`,
          ),
        );
      },
      Math.min(1000, stallMs / 4),
    );
    onAbort = () => reject(aborted());
    signal?.addEventListener('abort', onAbort, { once: true });
    void gone?.then(() =>
      reject(
        new AgentError(
          'model-crashed',
          "llama.cpp's worker stopped while it loaded the model (the browser ended it: out of memory, or terminated). Try again; if it happens each time, use a smaller model or quantization, or a smaller model.contextWindow.",
        ),
      ),
    );
  });
  log.lastActivity = performance.now();
  try {
    await Promise.race([loading, watch]);
  } finally {
    clearInterval(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
    loading.catch(() => undefined);
  }
}

function aborted(): AgentError {
  return new AgentError('aborted', 'Loading the model was aborted.');
}

/**
 * Below this many billions of parameters a model makes one round of tool calls a run, then answers: given its
 * results and free to call again, Qwen2.5-Coder 0.5B and 1.5B both called unrelated tools instead of answering
 * (the 1.5B: add_todo, complete_todo, then list_todos until the repeat guard ended the run, with no reply).
 */
const SMALL_BILLIONS = 2;

/** A GGUF's general.size_label ("0.5B", "270M", "8x7B") in billions of parameters; NaN when it says none. */
function billionsOf(label: string | undefined): number {
  const match = /^(?:(\d+)x)?(\d+(?:\.\d+)?)([MBT])$/i.exec(label?.trim() ?? '');
  if (!match) return NaN;
  const unit = { m: 1e-3, b: 1, t: 1e3 }[match[3]!.toLowerCase() as 'm' | 'b' | 't'];
  return Number(match[1] ?? 1) * Number(match[2]) * unit;
}
