import type { Plugin } from 'vite';

export interface RealModel {
  name: string;
  default?: boolean;
  alias?: string;
  bytes: number;
  sha256: string;
  license: string;
}
/** The real models by file name (scripts/real-models.json). */
export const REAL_MODELS: Record<string, RealModel>;
/** The base model (Gemma 3 270M). */
export const REAL_MODEL_FILE: string;
export const REAL_MODEL_SHA256: string;
/** The instruction-tuned model (Qwen2.5-Coder-0.5B-Instruct). */
export const INSTRUCT_MODEL_FILE: string;
/** The folder outside the repository where fetched models are kept. */
export function modelCacheDir(): string;
/** A real model's path (Gemma's by default), or undefined when it has not been fetched. */
export function realModelPath(file?: string): string | undefined;
/** The default real models not on this machine yet. */
export function missingRealModels(): string[];
/** One line on how to get the real model. */
export const FETCH_HINT: string;
/** The tiny random-weight model with a family's tokenizer, written first if missing. */
export function tinyModelPath(family: 'qwen2_5' | 'qwen3' | 'llama3' | 'gemma2' | 'gemma3', format?: string): string;
/** Serves /models/<name> from those files (404 for others); /models/stall/… never answers. */
export function serveModels(): Plugin;
