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
 *
 * This class coordinates; the parts are files of their own: the load
 * (wllama-load.ts, its guards and the model's info), a step's decoding
 * (wllama-decode.ts, with its recovery rules: invalid-utf8-rule.ts,
 * strict-grammar-rule.ts), the prompt read ahead (wllama-read-ahead.ts) and
 * the short questions (wllama-short-completion.ts).
 */
import type { Wllama } from '@wllama/wllama/esm/index.js';
import { AgentError } from '../../../errors';
import { DEFAULT_CONTEXT_WINDOW } from '../../context-window';
import type {
  CallChance,
  Choice,
  ChoiceRequest,
  ModelDelta,
  ModelEngine,
  ModelInfo,
  ModelProgress,
  ModelRequest,
  PromptRead,
  WarmupResult,
} from '../../engine';
import { toolFormatNamed } from '../../formats/registry';
import type { ToolFormat } from '../../formats/tool-format';
import { estimateTokens, tokenizerFamily } from '../../token-estimate';
import type { CompletionChunk, LlamaTurn, Timings } from './wllama-completion';
import { decodeStep } from './wllama-decode';
import { formatOf, modelNameOf } from './wllama-family';
import { areCached, deleteCached } from './gguf-cache';
import type { LlamaWorkerWatch } from './wllama-inner-worker';
import { loadLlama } from './wllama-load';
import { loadAborted } from './wllama-load-guards';
import { WllamaLog } from './wllama-log';
import { loadedModelInfo } from './wllama-model-info';
import type { WllamaEngineOptions } from './wllama-options';
import type { PromptWriter } from './wllama-prompt';
import { NOT_READ_AHEAD, readAheadAborted, readAheadText, readInPieces } from './wllama-read-ahead';
import { toWllamaRequest, type WllamaRequestPlan } from './wllama-request';
import { chooseOption, weighCall, type ShortQuestion } from './wllama-short-completion';

/** Between two calls of one turn: what the formats' grammars allow there (white space), and what the models write. */
const CALL_SEPARATOR = '\n';

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
    if (signal?.aborted) throw loadAborted();
    this.onProgress = onProgress;
    const { wllama, watch, bytes, model } = await loadLlama(this.options, {
      modelId: this.state.modelId,
      contextWindow: this.state.contextWindow,
      log: this.log,
      onProgress,
      signal,
      onLlama: (wllama) => (this.wllama = wllama),
    });
    this.watch(wllama, watch, !model.notKept);
    this.format = model.written.format;
    this.prompt = model.written.prompt;
    const { info, oneCall } = loadedModelInfo(this.state, model, this.options);
    this.state = info;
    this.oneCall = oneCall;
    onProgress?.({ progress: 1, text: `${this.state.label} is ready.`, loadedBytes: bytes, totalBytes: bytes });
  }

  /**
   * llama.cpp, loaded (again, after a crash: the request waits for the load begun when the worker died, or
   * here), for one request; else why not. It runs one request at a time: the engine pool gives each request
   * its turn (worker/engine-pool.ts), so nothing here waits for another.
   */
  private async llama(signal?: AbortSignal): Promise<{ prompt: PromptWriter; turn: LlamaTurn }> {
    if (this.prompt) await this.load(this.onProgress);
    const { wllama, prompt, gone } = this;
    if (!wllama || !prompt)
      throw new AgentError('model-failed', `The model ${this.state.modelId} is not loaded yet; call load() first.`);
    const turn: LlamaTurn = {
      complete: (params) =>
        wllama.createCompletion(params as never) as unknown as Promise<AsyncIterable<CompletionChunk>>,
      log: this.log,
      modelId: this.state.modelId,
      signal,
      gone,
      onHeld: (text) => (this.held = text),
      onTimings: (timings) => (this.lastTimings = timings),
    };
    return { prompt, turn };
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
    const { prompt, turn: llama } = await this.llama(signal);
    this.reloadedUnused = false;
    if (signal?.aborted) {
      yield { type: 'finish', reason: 'abort' };
      return;
    }
    const plan = this.plan(request, prompt);
    if (plan.notice) yield plan.notice;
    const deltas = decodeStep(
      { ...plan, prompt: plan.prompt + turn },
      {
        ...llama,
        contextWindow: this.state.contextWindow,
        completion: this.options.completion,
        oneCall: this.oneCall,
        started,
        onToken: (ms) => (this.lastFirstTokenMs ??= ms),
      },
    );
    for await (const delta of deltas)
      yield delta.type === 'finish' && turn && delta.raw !== undefined ? { ...delta, raw: turn + delta.raw } : delta;
  }

  /**
   * Reads the prompt of `request` up to its last message's text (wllama-read-ahead.ts), in pieces past what
   * llama.cpp's cache holds already.
   */
  async readAhead(
    request: ModelRequest,
    signal?: AbortSignal,
    onRead?: (progress: PromptRead) => void,
  ): Promise<WarmupResult> {
    const t0 = performance.now();
    const { prompt, turn } = await this.llama(signal);
    if (signal?.aborted) throw readAheadAborted();
    const text = readAheadText(request, prompt);
    if (text === undefined) return { ...NOT_READ_AHEAD, ms: performance.now() - t0 };
    this.reloadedUnused = false;
    const read = await readInPieces(text, {
      ...turn,
      held: this.held,
      countTokens: (part) => this.countTokens(part),
      onRead,
    });
    return { status: 'read', ...read, ms: performance.now() - t0 };
  }

  async choose(request: ChoiceRequest, signal?: AbortSignal, onRead?: (progress: PromptRead) => void): Promise<Choice> {
    const t0 = performance.now();
    const { prompt, question } = await this.ready(signal, onRead);
    const choice = await chooseOption(request, prompt, (text) => this.countTokens(text), question);
    return { ...choice, ms: performance.now() - t0 };
  }

  async callChance(
    request: ModelRequest,
    signal?: AbortSignal,
    onRead?: (progress: PromptRead) => void,
  ): Promise<CallChance> {
    const t0 = performance.now();
    const { prompt, question } = await this.ready(signal, onRead);
    const chance = await weighCall(this.plan(request, prompt), question);
    return { ...chance, ms: performance.now() - t0 };
  }

  /** llama.cpp for one of the engine's short questions. */
  private async ready(
    signal?: AbortSignal,
    onRead?: (progress: PromptRead) => void,
  ): Promise<{ prompt: PromptWriter; question: ShortQuestion }> {
    const { prompt, turn } = await this.llama(signal);
    if (signal?.aborted) throw new AgentError('aborted', 'Aborted before the model read the prompt.');
    this.reloadedUnused = false;
    return { prompt, question: { ...turn, onRead } };
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
