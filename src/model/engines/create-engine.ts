/**
 * The engine a ModelOptions asks for. web-llm (about 6 MB) and llama.cpp
 * (wllama, 0.4 MB of JavaScript and an 8.8 MB wasm) are imported only when
 * their engine loads, so a worker that runs the scripted engine (tests, the
 * demo without WebGPU) never fetches or parses either.
 */
import { AgentError } from '../../errors';
import type { ModelDelta, ModelEngine, ModelInfo, ModelOptions, ModelProgress, ModelRequest } from '../engine';
import { DEFAULT_CONTEXT_WINDOW } from '../context-window';
import { ModuleEngine } from './module/module-engine';
import { toolFormatFor, toolFormatNamed } from '../formats/registry';
import { callsToolsNatively } from './webllm/native-models';
import { ScriptedEngine } from './scripted/scripted-engine';
import { estimateTokens, tokenizerFamily } from '../token-estimate';
import type { WebLLMEngine, WebLLMEngineOptions } from './webllm/webllm-engine';
import { LazyWllamaEngine } from './wllama/wllama-lazy-engine';

export function createEngine(options: ModelOptions): ModelEngine {
  if (!options || typeof options !== 'object') {
    throw new AgentError(
      'invalid-options',
      'model must be { engine: "webllm", modelId }, { engine: "wllama", url }, { engine: "scripted", turns } or { engine: "module", url }.',
    );
  }
  if (options.engine === 'scripted') {
    if (!Array.isArray(options.turns))
      throw new AgentError(
        'invalid-options',
        'model.turns must be an array of scripted turns for the scripted engine.',
      );
    return new ScriptedEngine(
      options.turns,
      options.contextWindow,
      toolFormatNamed(options.toolFormat ?? 'generic-json'),
    );
  }
  if (options.engine === 'webllm') {
    if (typeof options.modelId !== 'string' || !options.modelId) {
      throw new AgentError(
        'invalid-options',
        'model.modelId must name a web-llm model, e.g. "Qwen2.5-0.5B-Instruct-q4f32_1-MLC".',
      );
    }
    const { onProgress: _onProgress, engine: _engine, ...rest } = options;
    if (rest.toolFormat !== undefined) toolFormatNamed(rest.toolFormat); // refuse an unknown name before any download
    return new LazyWebLLMEngine(rest);
  }
  if (options.engine === 'wllama') return new LazyWllamaEngine(options);
  if (options.engine === 'module') return new ModuleEngine(options.url, options.options);
  throw new AgentError(
    'invalid-options',
    `Unknown model engine "${(options as { engine?: unknown }).engine}"; use "webllm", "wllama", "scripted" or "module".`,
  );
}

/** Stands in for the web-llm engine until load() has imported it. */
class LazyWebLLMEngine implements ModelEngine {
  private engine?: WebLLMEngine;
  private readonly preliminary: ModelInfo;

  constructor(private readonly options: WebLLMEngineOptions) {
    this.preliminary = {
      engine: 'webllm',
      modelId: options.modelId,
      label: `${options.modelId} (web-llm, on this device)`,
      contextWindow: options.contextWindow ?? DEFAULT_CONTEXT_WINDOW,
      nativeToolCalls: callsToolsNatively(options.modelId, options.nativeToolCalls ?? true),
      toolFormat: toolFormatFor(options.modelId, options.toolFormat).name,
    };
  }

  get info(): ModelInfo {
    return this.engine?.info ?? this.preliminary;
  }

  private async real(): Promise<WebLLMEngine> {
    if (!this.engine) {
      const { WebLLMEngine } = await import('./webllm/webllm-engine');
      this.engine = new WebLLMEngine(this.options);
    }
    return this.engine;
  }

  async load(onProgress?: (progress: ModelProgress) => void, signal?: AbortSignal): Promise<void> {
    await (await this.real()).load(onProgress, signal);
  }

  async *generate(request: ModelRequest, signal?: AbortSignal): AsyncIterable<ModelDelta> {
    yield* (await this.real()).generate(request, signal);
  }

  countTokens(text: string): number {
    return this.engine ? this.engine.countTokens(text) : estimateTokens(text, tokenizerFamily(this.options.modelId));
  }

  async isCached(): Promise<boolean> {
    return (await this.real()).isCached();
  }

  async deleteCache(): Promise<void> {
    await (await this.real()).deleteCache();
  }

  async dispose(): Promise<void> {
    await this.engine?.dispose();
  }
}
