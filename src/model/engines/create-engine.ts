/**
 * The engine a ModelOptions asks for. web-llm (about 6 MB) and llama.cpp
 * (wllama, 0.4 MB of JavaScript and an 8.8 MB wasm) are imported only when
 * their engine loads, so a worker that runs the scripted engine (tests, the
 * demo without WebGPU) never fetches or parses either.
 */
import { AgentError } from '../../errors';
import type { ModelEngine } from '../engine';
import type { ModelOptions } from '../model-options';
import { ModuleEngine } from './module/module-engine';
import { toolFormatNamed } from '../formats/registry';
import { ScriptedEngine } from './scripted/scripted-engine';
import { LazyWebLLMEngine } from './webllm/webllm-lazy-engine';
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
