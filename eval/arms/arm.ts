/**
 * An arm: one way of asking a model for a case's calls, run on the same model
 * and cases as the others (issue 22):
 * - `ours`: the family's format, prompt and reader, decoding under our grammar;
 * - `ours-before`: the same, with the loop before issue 50's decision layer
 *   (`decisions: false`, its agent options in arm-agent-options.ts);
 * - `ours-tools-that-fit`, `ours-given-values`: the decision layer with that part on (each off by default);
 * - `ours-no-grammar`: the same prompt and reader, free decoding;
 * - `native`: llama.cpp's own tool calling (wllama's createChatCompletion with `tools`);
 * - `fenced-json`: what the AI SDK's in-browser providers do, JSON in a fenced block, no grammar.
 *
 * An arm turns the run's model into the `model` option of createAgent for
 * one case; everything after that (tools, the loop, the judge) is shared.
 */
import type { ModelOptions } from '../../src/model/model-options';
import type { ToolFormatName } from '../../src/model/formats/tool-format';
import type { ModelCall } from '../bfcl/types';

export type ArmName =
  'ours' | 'ours-before' | 'ours-tools-that-fit' | 'ours-given-values' | 'ours-no-grammar' | 'native' | 'fenced-json';

/** The model of a run. */
export type EvalModel =
  /** A GGUF file by URL, run by llama.cpp in the worker (the wllama engine, issue 21). */
  | {
      kind: 'gguf';
      url: string;
      /** The file's name where its URL does not end with it (a file from the visitor's disk, at a blob: URL). */
      name?: string;
      toolFormat?: ToolFormatName;
      /** Our arms' wllama option (default: the engine's, 'one' for a base model). */
      callsPerStep?: 'one' | 'any';
      /** llama.cpp's threads, the same for every arm (default: the engine's). */
      threads?: number;
    }
  /** A web-llm model id (WebGPU). */
  | { kind: 'webllm'; modelId: string; toolFormat?: ToolFormatName }
  /**
   * No model: each case's answer is scripted from BFCL's possible answers
   * (some made wrong on purpose) and written the way the arm's model would
   * write it, then read by the arm's real reader. Proves the mechanics only.
   */
  | { kind: 'mechanics'; toolFormat: ToolFormatName };

/** A mechanics case's answer, before an arm writes it in its syntax. */
export interface ScriptedAnswer {
  calls: ModelCall[];
  text: string;
  /** Written, then cut off before its end, so that no call in it can be read. */
  cut: boolean;
}

export type ArmModel = ModelOptions | { unavailable: string };

export interface Arm {
  readonly name: ArmName;
  /** Shown in tables, e.g. "ours (format + grammar)". */
  readonly label: string;
  /** The AI SDK's providers pass on only the first call of a turn. */
  readonly firstCallOnly?: boolean;
  /** The model option for one case; `script` is that case's answer when the model is the mechanics check. */
  modelFor(model: EvalModel, script?: ScriptedAnswer): ArmModel;
}

export function isUnavailable(model: ArmModel): model is { unavailable: string } {
  return 'unavailable' in model;
}

export function describeModel(model: EvalModel): string {
  if (model.kind === 'gguf') return `${model.name ?? model.url.split('/').pop()} (GGUF)`;
  if (model.kind === 'webllm') return `${model.modelId} (web-llm)`;
  return `mechanics check, no model (${model.toolFormat})`;
}
