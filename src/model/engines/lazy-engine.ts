/**
 * Stands in for an engine until load() has imported it: web-llm (about
 * 6 MB) and llama.cpp (wllama's JavaScript and the address of its 8.8 MB
 * wasm) are chunks of their own, which a worker that runs another engine
 * never fetches. Until then the model is described from its options, and
 * its tokens are estimated for its family (token-estimate.ts).
 */
import type { ModelDelta, ModelEngine, ModelInfo, ModelProgress, ModelRequest } from '../engine';
import { estimateTokens, tokenizerFamily } from '../token-estimate';

export abstract class LazyEngine<Engine extends ModelEngine> implements ModelEngine {
  protected engine?: Engine;

  constructor(
    private readonly preliminary: ModelInfo,
    /** Imports the engine's chunk and makes the engine; called once, at the first use that needs it. */
    private readonly start: () => Promise<Engine>,
  ) {}

  get info(): ModelInfo {
    return this.engine?.info ?? this.preliminary;
  }

  protected async real(): Promise<Engine> {
    if (!this.engine) {
      const engine = await this.start();
      this.engine ??= engine; // two first uses at once share the engine the earlier one made
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
    return this.engine
      ? this.engine.countTokens(text)
      : estimateTokens(text, tokenizerFamily(this.preliminary.modelId));
  }

  countsWithTokenizer(): boolean {
    return this.engine?.countsWithTokenizer?.() ?? false;
  }

  async dispose(): Promise<void> {
    await this.engine?.dispose();
  }
}
