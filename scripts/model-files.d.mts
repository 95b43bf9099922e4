import type { Plugin } from 'vite';

export const REAL_MODEL_FILE: string;
export const REAL_MODEL_SHA256: string;
/** The folder outside the repository where fetched models are kept. */
export function modelCacheDir(): string;
/** The real model's path, or undefined when it has not been fetched. */
export function realModelPath(): string | undefined;
/** One line on how to get the real model. */
export const FETCH_HINT: string;
/** The tiny random-weight model with a family's tokenizer, written first if missing. */
export function tinyModelPath(family: 'qwen2_5' | 'qwen3' | 'llama3' | 'gemma2' | 'gemma3', format?: string): string;
/** Serves /models/<name> from those files (404 for others); /models/stall/… never answers. */
export function serveModels(): Plugin;
