/** What a page chooses for a web-llm model (MLC weights on WebGPU): model: { engine: 'webllm', … }. */
import type { ModelProgress } from '../../engine';
import type { ToolFormatName } from '../../formats/tool-format-name';

export type WebllmModelOptions = {
  engine: 'webllm';
  modelId: string;
  appConfig?: unknown;
  cacheBackend?: 'cache' | 'indexeddb' | 'opfs';
  contextWindow?: number;
  onProgress?: (progress: ModelProgress) => void;
  /** Resolves relative URLs in appConfig; the page passes its own address (the worker's differs). */
  baseUrl?: string;
  /** Use web-llm's native function calling for the Hermes ids (default true). */
  nativeToolCalls?: boolean;
  /** The constraint for models without native calls (default 'structural-tag'). */
  grammar?: 'structural-tag' | 'json';
  /** Use this family's tool-call format instead of the one the model id implies. */
  toolFormat?: ToolFormatName;
};
