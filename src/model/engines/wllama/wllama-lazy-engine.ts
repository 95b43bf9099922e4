/**
 * Stands in for the wllama engine until load() has imported it: llama.cpp
 * (its JavaScript and the address of its 8.8 MB wasm) is a chunk of its own,
 * which a worker that runs another engine never fetches.
 */
import { AgentError } from '../../../errors';
import { DEFAULT_CONTEXT_WINDOW } from '../../context-window';
import type {
  ModelDelta,
  ModelEngine,
  ModelInfo,
  ModelOptions,
  ModelProgress,
  ModelRequest,
  WarmupResult,
} from '../../engine';
import { toolFormatNamed } from '../../formats/registry';
import { estimateTokens, tokenizerFamily } from '../../token-estimate';
import { formatOf, modelNameOf } from './wllama-family';
import { areCached, deleteCached, sha256List } from './wllama-files';
import type { WllamaEngine, WllamaEngineOptions } from './wllama-engine';

export type WllamaOptions = Extract<ModelOptions, { engine: 'wllama' }>;

export class LazyWllamaEngine implements ModelEngine {
  private engine?: WllamaEngine;
  private readonly preliminary: ModelInfo;
  private readonly options: WllamaEngineOptions;

  constructor(options: WllamaOptions, base: string = self.location.href) {
    const urls = (Array.isArray(options.url) ? options.url : [options.url]).map((url) => {
      if (typeof url !== 'string' || !url || !URL.canParse(url, base))
        throw new AgentError(
          'invalid-options',
          `model.url must be the address of a .gguf file (or a list of a split model's files); got ${JSON.stringify(url)}.`,
        );
      return new URL(url, base).href;
    });
    if (!urls.length) throw new AgentError('invalid-options', 'model.url must name at least one .gguf file.');
    if (options.toolFormat !== undefined) toolFormatNamed(options.toolFormat); // refuse an unknown name before any download
    sha256List(options.sha256, urls.length); // likewise a hash that is not one, or not one per file
    const { engine: _engine, onProgress: _onProgress, url: _url, ...rest } = options;
    this.options = { ...rest, urls };
    const name = options.modelId ?? modelNameOf(urls[0]);
    this.preliminary = {
      engine: 'wllama',
      modelId: name,
      label: `${name} (llama.cpp, on this device)`,
      contextWindow: options.contextWindow ?? DEFAULT_CONTEXT_WINDOW,
      nativeToolCalls: false,
      toolFormat: options.toolFormat ?? formatOf([name]),
    };
  }

  get info(): ModelInfo {
    return this.engine?.info ?? this.preliminary;
  }

  private async real(): Promise<WllamaEngine> {
    if (!this.engine) {
      const { WllamaEngine } = await import('./wllama-engine');
      this.engine ??= new WllamaEngine(this.options);
    }
    return this.engine;
  }

  async load(onProgress?: (progress: ModelProgress) => void, signal?: AbortSignal): Promise<void> {
    await (await this.real()).load(onProgress, signal);
  }

  async *generate(request: ModelRequest, signal?: AbortSignal): AsyncIterable<ModelDelta> {
    yield* (await this.real()).generate(request, signal);
  }

  async readAhead(request: ModelRequest, signal?: AbortSignal): Promise<WarmupResult> {
    return (await this.real()).readAhead(request, signal);
  }

  countTokens(text: string): number {
    return this.engine
      ? this.engine.countTokens(text)
      : estimateTokens(text, tokenizerFamily(this.preliminary.modelId));
  }

  // The files' cache needs no llama.cpp: asking about it imports nothing.
  async isCached(): Promise<boolean> {
    return areCached(this.options.urls);
  }

  async deleteCache(): Promise<void> {
    await deleteCached(this.options.urls);
  }

  async dispose(): Promise<void> {
    await this.engine?.dispose();
  }
}
