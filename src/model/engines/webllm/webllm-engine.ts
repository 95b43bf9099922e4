/**
 * A local model through @mlc-ai/web-llm, run in the current thread (our
 * worker): MLCEngine, not a second worker. What it adds to web-llm:
 * a WebGPU check before any download, errors that say what to do, abort for
 * loading and decoding, progress with byte counts, the tool-call protocol
 * for models without native function calling, and a prompt that follows the
 * model's trained chat template where web-llm's own differs (webllm-conversation.ts).
 */
import {
  MLCEngine,
  deleteModelAllInfoInCache,
  hasModelInCache,
  type AppConfig,
  type ChatCompletionChunk,
  type ChatCompletionRequestStreaming,
  type InitProgressReport,
  type MLCEngineInterface,
  type ModelRecord,
} from '@mlc-ai/web-llm';
import { AgentError } from '../../../errors';
import { DEFAULT_CONTEXT_WINDOW } from '../../context-window';
import type { ModelDelta, ModelEngine, ModelInfo, ModelProgress, ModelRequest, ToolFormatName } from '../../engine';
import { toolFormatFor } from '../../formats/registry';
import type { ToolFormat } from '../../formats/tool-format';
import { callsToolsNatively } from './native-models';
import { estimateTokens, tokenizerFamily } from '../../token-estimate';
import { findRecord, resolveAppConfig, type CacheBackend } from './webllm-app-config';
import { modelNotFound, shaderF16Missing, toAgentError, webgpuUnavailable, type ProbeResult } from './webllm-errors';
import { describeAdapter, probeWebGPU, type GpuReport } from './webllm-gpu';
import { parseProgress } from './webllm-progress';
import { chatOptionsFor, conversationFit, type ConversationFit } from './webllm-conversation';
import { toWebLLMRequest, type GrammarForm, type RequestStyle, type WebLLMRequestPlan } from './webllm-request';
import { toModelDeltas } from './webllm-stream';
import { webllmSpecialTokens } from './webllm-special-tokens';
import { escapeUntrusted, escaperFor, type Escape } from '../../escape';

/** The part of web-llm's engine we use; a test may hand in a stand-in implementing it. */
export interface WebLLMEngineLike extends Pick<
  MLCEngineInterface,
  'reload' | 'interruptGenerate' | 'unload' | 'setInitProgressCallback'
> {
  /** We only ever stream. */
  chatCompletion(request: ChatCompletionRequestStreaming): Promise<AsyncIterable<ChatCompletionChunk>>;
}

export interface WebLLMEngineOptions {
  modelId: string;
  /** web-llm's AppConfig; `model` and `model_lib` may be relative to the page. Absent: web-llm's prebuilt list. */
  appConfig?: unknown;
  cacheBackend?: CacheBackend;
  /** Overrides the context window the model record declares. */
  contextWindow?: number;
  /** Resolves relative URLs in appConfig; defaults to the current location. */
  baseUrl?: string;
  /** Use web-llm's native function calling where the model has it (the Hermes ids). Default true. */
  nativeToolCalls?: boolean;
  /** The constraint for models without native calls. Default 'structural-tag'. */
  grammar?: GrammarForm;
  /** The family format to use instead of the one the model id implies. */
  toolFormat?: ToolFormatName;
  /** Builds the web-llm engine; default `new MLCEngine({ appConfig })` in this thread. */
  createEngine?: (appConfig: AppConfig) => WebLLMEngineLike | Promise<WebLLMEngineLike>;
  /** Finds the GPU; default navigator.gpu. */
  probeGpu?: () => Promise<GpuReport>;
  /** Asks the server for a file again after a failure; default fetch. */
  probeUrl?: (url: string) => Promise<ProbeResult>;
  /** The date a chat template prints (Llama 3.x's); default: when the engine is made. */
  now?: Date;
}

export class WebLLMEngine implements ModelEngine {
  readonly info: ModelInfo;
  /** What the GPU check found, once load() ran it. */
  gpu?: GpuReport;
  private readonly appConfig: AppConfig;
  private readonly record?: ModelRecord;
  private readonly format: ToolFormat;
  private readonly conversation: ConversationFit;
  private engine?: WebLLMEngineLike;
  private loaded = false;
  private busy = false;
  /** Escapes text the model did not write, with its tokenizer's special tokens once they are read (load). */
  private escape: Escape = escapeUntrusted;

  constructor(private readonly options: WebLLMEngineOptions) {
    this.appConfig = resolveAppConfig(options.appConfig, {
      baseUrl: options.baseUrl,
      cacheBackend: options.cacheBackend,
    });
    this.record = findRecord(this.appConfig, options.modelId);
    const native = callsToolsNatively(options.modelId, options.nativeToolCalls ?? true);
    this.format = toolFormatFor(options.modelId, options.toolFormat);
    this.conversation = conversationFit(options.modelId, options.now ?? new Date());
    const declared = Number(this.record?.overrides?.context_window_size);
    const contextWindow = options.contextWindow ?? (declared > 0 ? declared : DEFAULT_CONTEXT_WINDOW);
    this.info = {
      engine: 'webllm',
      modelId: options.modelId,
      label: `${options.modelId} (web-llm, on this device)`,
      contextWindow,
      nativeToolCalls: native,
      toolFormat: this.format.name,
    };
  }

  private get knownIds(): string[] {
    return this.appConfig.model_list.map((record) => record.model_id);
  }

  async load(onProgress?: (progress: ModelProgress) => void, signal?: AbortSignal): Promise<void> {
    if (this.loaded) return;
    if (signal?.aborted) throw new AgentError('aborted', 'Loading the model was aborted.');
    // Fail fast, before anything is downloaded.
    if (!this.record) throw modelNotFound(this.options.modelId, this.knownIds);
    const gpu = await (this.options.probeGpu ?? probeWebGPU)();
    this.gpu = gpu;
    if (!gpu.available) throw webgpuUnavailable(gpu);
    if (needsShaderF16(this.record) && !gpu.shaderF16) throw shaderF16Missing(this.options.modelId, this.knownIds, gpu);
    onProgress?.({ progress: 0, text: `Found WebGPU: ${describeAdapter(gpu)}. Loading ${this.options.modelId}…` });

    const engine = await (this.options.createEngine ?? defaultEngine)(this.appConfig);
    this.engine = engine;
    engine.setInitProgressCallback((report: InitProgressReport) => onProgress?.(parseProgress(report)));
    const onAbort = () => void engine.unload();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      await engine.reload(this.options.modelId, chatOptionsFor(this.conversation, this.record.overrides));
    } catch (error) {
      throw await this.failure(error);
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
    // web-llm's reload() returns quietly when unload() aborted it.
    if (signal?.aborted) throw new AgentError('aborted', 'Loading the model was aborted.');
    this.escape = escaperFor(await webllmSpecialTokens(this.record.model));
    this.loaded = true;
  }

  /** What web-llm threw, as the AgentError that says what to do about it for this model. */
  private failure(error: unknown): Promise<AgentError> {
    return toAgentError(error, {
      modelId: this.options.modelId,
      record: this.record,
      knownIds: this.knownIds,
      probe: this.options.probeUrl,
    });
  }

  async *generate(request: ModelRequest, signal?: AbortSignal): AsyncIterable<ModelDelta> {
    const engine = this.engine;
    if (!engine || !this.loaded)
      throw new AgentError('model-failed', `The model ${this.options.modelId} is not loaded yet; call load() first.`);
    if (this.busy)
      throw new AgentError(
        'model-failed',
        'The model is already answering another request; web-llm runs one at a time.',
      );
    if (signal?.aborted) {
      yield { type: 'finish', reason: 'abort' };
      return;
    }
    const style: RequestStyle = {
      native: this.info.nativeToolCalls,
      grammar: this.options.grammar ?? 'structural-tag',
      format: this.format,
      contextWindow: this.info.contextWindow,
      conversation: this.conversation,
      escape: this.escape,
    };
    this.busy = true;
    const onAbort = () => void engine.interruptGenerate();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const started = await startGeneration(engine, request, style);
      if (started.notice) yield started.notice;
      yield* toModelDeltas(started.chunks, started.plan, () => void engine.interruptGenerate());
    } catch (error) {
      throw await this.failure(error);
    } finally {
      signal?.removeEventListener('abort', onAbort);
      this.busy = false;
    }
  }

  countTokens(text: string): number {
    return this.tokenizerCount(text) ?? estimateTokens(text, tokenizerFamily(this.options.modelId));
  }

  countsWithTokenizer(): boolean {
    return this.tokenizer() !== undefined;
  }

  /** The loaded model's tokenizer, or undefined: web-llm keeps it private (pipeline.tokenizer), and a later version may move it. */
  private tokenizer(): { encode(text: string): ArrayLike<number> } | undefined {
    try {
      const pipelines = (
        this.engine as
          | { loadedModelIdToPipeline?: Map<string, { tokenizer?: { encode(text: string): ArrayLike<number> } }> }
          | undefined
      )?.loadedModelIdToPipeline;
      return pipelines?.get(this.options.modelId)?.tokenizer;
    } catch {
      return undefined;
    }
  }

  /** The tokenizer's count, or undefined (no tokenizer, or it failed): the caller estimates then. */
  private tokenizerCount(text: string): number | undefined {
    try {
      return this.tokenizer()?.encode(text).length;
    } catch {
      return undefined;
    }
  }

  async isCached(): Promise<boolean> {
    if (!this.record) return false;
    return hasModelInCache(this.options.modelId, this.appConfig);
  }

  async deleteCache(): Promise<void> {
    if (!this.record) return;
    await deleteModelAllInfoInCache(this.options.modelId, this.appConfig);
  }

  async dispose(): Promise<void> {
    this.loaded = false;
    await this.engine?.unload();
    this.engine = undefined;
  }
}

/**
 * Models quantized with 16-bit floats (q4f16_1, q0f16) need shader-f16 even
 * where the prebuilt record does not declare it (Qwen2.5's do not); without
 * it web-llm would download the weights and fail compiling shaders.
 */
export function needsShaderF16(record: ModelRecord): boolean {
  return Boolean(record.required_features?.includes('shader-f16')) || /q\df16/.test(record.model_id);
}

interface Started {
  plan: WebLLMRequestPlan;
  chunks: AsyncIterable<ChatCompletionChunk>;
  notice?: Extract<ModelDelta, { type: 'notice' }>;
}

/**
 * Starts decoding under the step's grammar. When web-llm cannot compile it
 * (GrammarMatcherInitError, raised before the first token), the step runs
 * again with the tools constrained by name only, then with no grammar: the
 * calls are still read and validated after generation, and one notice says so.
 */
async function startGeneration(engine: WebLLMEngineLike, request: ModelRequest, style: RequestStyle): Promise<Started> {
  let plan = toWebLLMRequest(request, style);
  const relaxedUpFront = [...plan.relaxed].map(([name, why]) => `${name} (${why})`);
  const attempts: RequestStyle[] = [
    { ...style, relaxed: new Set(plan.toolNames) },
    { ...style, unconstrained: true },
  ];
  let refusal: string | undefined;
  for (;;) {
    try {
      const chunks = await engine.chatCompletion(plan.request);
      const iterator = chunks[Symbol.asyncIterator]();
      const first = await iterator.next(); // a grammar web-llm cannot compile fails here, before any token
      const notice = fallbackNotice(relaxedUpFront, refusal, plan);
      return { plan, chunks: resume(first, iterator), ...(notice && { notice }) };
    } catch (error) {
      const next = attempts.shift();
      if (!isGrammarError(error) || !plan.request.response_format || !next) throw error;
      refusal ??= error instanceof Error ? error.message : String(error);
      plan = toWebLLMRequest(request, next);
    }
  }
}

function fallbackNotice(
  relaxedUpFront: string[],
  refusal: string | undefined,
  plan: WebLLMRequestPlan,
): Extract<ModelDelta, { type: 'notice' }> | undefined {
  if (refusal) {
    const constrained = plan.request.response_format ? 'constrained to the tool names only' : 'not constrained';
    return {
      type: 'notice',
      code: 'grammar-fallback',
      message: `web-llm could not compile the grammar for ${plan.toolNames.join(', ')} (${refusal}); calls in this step were ${constrained}, and are read and validated after generation.`,
    };
  }
  if (relaxedUpFront.length === 0) return undefined;
  return {
    type: 'notice',
    code: 'grammar-fallback',
    message: `The grammar cannot hold the argument schema of ${relaxedUpFront.join('; ')}: calls to it are constrained to its name only, and their arguments are validated after generation.`,
  };
}

/**
 * The stream again with its first chunk in front. Closing it early (the run
 * was aborted, the reader stopped) closes web-llm's generator too: until its
 * `finally` runs, web-llm holds the model's lock and every later request waits.
 */
async function* resume<T>(first: IteratorResult<T>, iterator: AsyncIterator<T>): AsyncGenerator<T> {
  let finished = Boolean(first.done);
  try {
    if (finished) return;
    yield first.value;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
    finished = true;
  } finally {
    if (!finished) await iterator.return?.();
  }
}

function isGrammarError(error: unknown): boolean {
  const name = error instanceof Error ? error.name : '';
  const message = error instanceof Error ? error.message : String(error);
  return name === 'GrammarMatcherInitError' || /Failed to initialize the grammar matcher/.test(message);
}

function defaultEngine(appConfig: AppConfig): WebLLMEngineLike {
  return new MLCEngine({ appConfig });
}
