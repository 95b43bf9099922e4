/**
 * What the engine says of a model once llama.cpp has loaded it: its name and label, its context window, its
 * tool format, and the notices a page should read (threads, template, a small or a base model, files not kept).
 */
import type { ModelInfo } from '../../engine';
import type { GgufPrompt } from './gguf-prompt';
import type { WllamaEngineOptions } from './wllama-options';

/**
 * Below this many billions of parameters a model makes one round of tool calls a run, then answers: given its
 * results and free to call again, Qwen2.5-Coder 0.5B and 1.5B both called unrelated tools instead of answering
 * (the 1.5B: add_todo, complete_todo, then list_todos until the repeat guard ended the run, with no reply).
 */
const SMALL_BILLIONS = 2;

/** What the load found: llama.cpp's account of the model and context, and how our side was set up. */
export interface LoadedModel {
  /** The GGUF's metadata, as llama.cpp read it. */
  metadata: Record<string, string | undefined>;
  /** The context llama.cpp allocated (tokens). */
  contextWindow: number;
  written: GgufPrompt;
  threads: number;
  threadNotice?: string;
  /** Why the files are not kept in this browser's cache, if they are not. */
  notKept?: string;
  /** llama.cpp's log while it loaded: it says whether WebGPU took the model. */
  logText: string;
}

/** The model's info after its load, and whether each step ends with its first call. */
export function loadedModelInfo(
  before: ModelInfo,
  loaded: LoadedModel,
  options: Pick<WllamaEngineOptions, 'modelId' | 'callsPerStep' | 'gpu'>,
): { info: ModelInfo; oneCall: boolean } {
  const { metadata, threads } = loaded;
  const name = options.modelId ?? metadata['general.name'] ?? before.modelId;
  const { format, base, markup, notice: templateNotice } = loaded.written;
  const oneCall = (options.callsPerStep ?? (base ? 'one' : 'any')) === 'one';
  const small = !base && billionsOf(metadata['general.size_label']) < SMALL_BILLIONS;
  const notices = [
    loaded.threadNotice,
    templateNotice,
    small
      ? `${name} is a small model: a run makes one round of tool calls and then answers in words (createAgent({ maxToolRounds }) changes that).`
      : undefined,
    base && !options.callsPerStep
      ? `${name} has no chat template (a base model, not trained to chat): its turns are written in ${markup}'s markup, a step with tools opens with a worked example of a call and of an answer without one, and each step ends with its first call, since such a model does not end its turn by itself.`
      : undefined,
    loaded.notKept,
  ].filter(Boolean);
  const gpu = /webgpu/i.test(loaded.logText) && options.gpu !== 'off';
  const info: ModelInfo = {
    ...before,
    modelId: name,
    label: `${name} (llama.cpp, ${gpu ? 'WebGPU' : threads === 1 ? 'one CPU thread' : `${threads} CPU threads`})`,
    contextWindow: loaded.contextWindow,
    toolFormat: format.name,
    threads,
    ...(notices.length && { notice: notices.join(' ') }),
    ...(base && { baseModel: true }),
    ...(small && { toolRounds: 1 }),
  };
  return { info, oneCall };
}

/** A GGUF's general.size_label ("0.5B", "270M", "8x7B") in billions of parameters; NaN when it says none. */
function billionsOf(label: string | undefined): number {
  const match = /^(?:(\d+)x)?(\d+(?:\.\d+)?)([MBT])$/i.exec(label?.trim() ?? '');
  if (!match) return NaN;
  const unit = { m: 1e-3, b: 1, t: 1e3 }[match[3]!.toLowerCase() as 'm' | 'b' | 't'];
  return Number(match[1] ?? 1) * Number(match[2]) * unit;
}
