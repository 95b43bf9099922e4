/**
 * Stands in for the wllama engine until load() has imported it: llama.cpp
 * (its JavaScript and the address of its 8.8 MB wasm) is a chunk of its own,
 * which a worker that runs another engine never fetches (lazy-engine.ts).
 * Its files' cache is asked about and emptied without it.
 */
import { AgentError } from '../../../errors';
import { DEFAULT_CONTEXT_WINDOW } from '../../context-window';
import type {
  CallChance,
  Choice,
  ChoiceRequest,
  ModelDelta,
  ModelRequest,
  PromptRead,
  WarmupResult,
} from '../../engine';
import type { WllamaEngineOptions, WllamaModelOptions } from './wllama-options';
import { toolFormatNamed } from '../../formats/registry';
import { LazyEngine } from '../lazy-engine';
import { formatOf, modelNameOf } from './wllama-family';
import { areCached, deleteCached } from './gguf-cache';
import { sha256List } from './sha256-list';
import type { WllamaEngine } from './wllama-engine';

export type WllamaOptions = WllamaModelOptions;

export class LazyWllamaEngine extends LazyEngine<WllamaEngine> {
  private readonly urls: string[];

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
    const engineOptions: WllamaEngineOptions = { ...rest, urls };
    const name = options.modelId ?? modelNameOf(urls[0]);
    super(
      {
        engine: 'wllama',
        modelId: name,
        label: `${name} (llama.cpp, on this device)`,
        contextWindow: options.contextWindow ?? DEFAULT_CONTEXT_WINDOW,
        nativeToolCalls: false,
        toolFormat: options.toolFormat ?? formatOf([name]),
      },
      async () => new (await import('./wllama-engine')).WllamaEngine(engineOptions),
    );
    this.urls = urls;
  }

  async readAhead(
    request: ModelRequest,
    signal?: AbortSignal,
    onRead?: (progress: PromptRead) => void,
  ): Promise<WarmupResult> {
    return (await this.real()).readAhead(request, signal, onRead);
  }

  async *continueTurn(request: ModelRequest, turn: string, signal?: AbortSignal): AsyncIterable<ModelDelta> {
    yield* (await this.real()).continueTurn(request, turn, signal);
  }

  async callChance(
    request: ModelRequest,
    signal?: AbortSignal,
    onRead?: (progress: PromptRead) => void,
  ): Promise<CallChance> {
    return (await this.real()).callChance(request, signal, onRead);
  }

  async choose(request: ChoiceRequest, signal?: AbortSignal, onRead?: (progress: PromptRead) => void): Promise<Choice> {
    return (await this.real()).choose(request, signal, onRead);
  }

  // The files' cache needs no llama.cpp: asking about it imports nothing.
  async isCached(): Promise<boolean> {
    return areCached(this.urls);
  }

  async deleteCache(): Promise<void> {
    await deleteCached(this.urls);
  }
}
