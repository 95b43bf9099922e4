/**
 * Stands in for the web-llm engine until load() has imported it (about 6 MB
 * of JavaScript, a chunk of its own: lazy-engine.ts).
 */
import { DEFAULT_CONTEXT_WINDOW } from '../../context-window';
import { toolFormatFor } from '../../formats/registry';
import { LazyEngine } from '../lazy-engine';
import { callsToolsNatively } from './native-models';
import type { WebLLMEngine, WebLLMEngineOptions } from './webllm-engine';

export class LazyWebLLMEngine extends LazyEngine<WebLLMEngine> {
  constructor(options: WebLLMEngineOptions) {
    super(
      {
        engine: 'webllm',
        modelId: options.modelId,
        label: `${options.modelId} (web-llm, on this device)`,
        contextWindow: options.contextWindow ?? DEFAULT_CONTEXT_WINDOW,
        nativeToolCalls: callsToolsNatively(options.modelId, options.nativeToolCalls ?? true),
        toolFormat: toolFormatFor(options.modelId, options.toolFormat).name,
      },
      async () => new (await import('./webllm-engine')).WebLLMEngine(options),
    );
  }

  async isCached(): Promise<boolean> {
    return (await this.real()).isCached();
  }

  async deleteCache(): Promise<void> {
    await (await this.real()).deleteCache();
  }
}
