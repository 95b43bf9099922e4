/**
 * Whether the real model is served at /models/ (see test/real-model.setup.ts),
 * in node and browser tests alike: the config hands it over with `provide`.
 */
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Whether the real model was fetched (scripts/fetch-model.sh). */
    realModel: boolean;
  }
}

/** Where the tests' server serves it (scripts/model-files.mjs). */
export const REAL_MODEL_URL = '/models/gemma-3-270m-q4_k_m.gguf';

/** Whether the real model is there; its tests are skipped (said once, by the setup) when not. */
export function hasRealModel(): boolean {
  return inject('realModel');
}
