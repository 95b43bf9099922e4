/** The `wllama` chat backend's options for a run's GGUF (the native and fenced-json arms). */
import type { EvalModel } from './arm';
import type { WllamaChatOptions } from './wllama-chat';

export function wllamaBackend(model: Extract<EvalModel, { kind: 'gguf' }>): WllamaChatOptions {
  return { kind: 'wllama', url: model.url, ...(model.threads && { threads: model.threads }) };
}
