/**
 * The real models (Qwen2.5-Coder-0.5B-Instruct and Gemma 3 270M, from PyPI)
 * live outside the repository (scripts/model-files.mjs). Without it the tests that run it are skipped,
 * saying once how to get it; CI must never pass by skipping them, so there a
 * missing model fails the run.
 */
import { FETCH_HINT, missingRealModels } from '../../scripts/model-files.mjs';

export default function checkRealModel(): void {
  // Both real-model projects run this setup; one line is enough.
  if (!missingRealModels().length || process.env.INPAGE_REAL_MODEL_CHECKED) return;
  process.env.INPAGE_REAL_MODEL_CHECKED = '1';
  if (process.env.CI) throw new Error(`CI needs the real model: ${FETCH_HINT}.`);
  console.warn(`Skipping the real-model tests: ${FETCH_HINT}.`);
}
