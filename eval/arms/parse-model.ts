/**
 * A run's model from one string (a URL parameter, a command-line option):
 * `mechanics` or `mechanics:<toolFormat>`, a GGUF (`gguf:<url>` or a URL
 * ending in .gguf), or a web-llm model id (`webllm:<id>` or the id alone).
 */
import { toolFormatNamed } from '../../src/model/formats/registry';
import type { EvalModel } from './arm';

/** Gemma 3's format: the family of the real model this runtime is measured with. */
const MECHANICS_FORMAT = 'gemma-tool-code';

export function parseModel(spec: string): EvalModel {
  const text = spec.trim();
  if (text === 'mechanics' || text.startsWith('mechanics:')) {
    const format = text.slice('mechanics:'.length) || MECHANICS_FORMAT;
    return { kind: 'mechanics', toolFormat: toolFormatNamed(format).name };
  }
  if (text.startsWith('gguf:')) return { kind: 'gguf', url: text.slice('gguf:'.length) };
  if (/\.gguf(\?.*)?$/i.test(text)) return { kind: 'gguf', url: text };
  if (text.startsWith('webllm:')) return { kind: 'webllm', modelId: text.slice('webllm:'.length) };
  if (!text) throw new Error('Name a model: mechanics, a GGUF URL, or a web-llm model id.');
  return { kind: 'webllm', modelId: text };
}

/** The run's model from the runner page's URL (model, and for a GGUF callsPerStep and threads). */
export function modelFromParams(params: URLSearchParams): EvalModel {
  const parsed = parseModel(params.get('model') ?? 'mechanics');
  if (parsed.kind !== 'gguf') return parsed;
  const callsPerStep = params.get('callsPerStep');
  const threads = params.get('threads');
  return {
    ...parsed,
    ...((callsPerStep === 'one' || callsPerStep === 'any') && { callsPerStep }),
    ...(threads && { threads: Number(threads) }),
  };
}
