/**
 * Whether the real model is served at /models/ (see test/real-model/setup.ts),
 * in node and browser tests alike: the config hands it over with `provide`.
 */
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Whether the base model, Gemma 3 270M, was fetched (scripts/fetch-model.sh). */
    realModel: boolean;
    /** Whether the instruction-tuned model, Qwen2.5-Coder-0.5B-Instruct, was fetched. */
    instructModel: boolean;
  }
}

/** Where the tests' server serves them (scripts/model-files.mjs). */
export const REAL_MODEL_URL = '/models/gemma-3-270m-q4_k_m.gguf';
export const INSTRUCT_MODEL_URL = '/models/qwen2.5-coder-0.5b-instruct-q4_k_m.gguf';

/** Whether the base model is there; its tests are skipped (said once, by the setup) when not. */
export function hasRealModel(): boolean {
  return inject('realModel');
}

/** Whether the instruction-tuned model is there. */
export function hasInstructModel(): boolean {
  return inject('instructModel');
}
