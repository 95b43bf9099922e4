/**
 * How many times more tokens the model read in a step's prompt than the
 * engine's count said: the window guard's counts are estimates
 * (model/token-estimate.ts), and text they read badly (rare scripts, bytes a
 * tokenizer spells out one by one, dense JSON) costs the model more. Learned
 * from each step the engine measured; it only grows, by eighths, so that the
 * guard's cut (a function of the messages and the window) moves seldom and
 * the engine's prompt cache stays valid between the steps. Never below 1: a
 * step that reports only the tokens it prefilled (web-llm after its first
 * step reuses its cache) teaches nothing, nor does a usage the engine marks
 * as estimated (the scripted engine's, of the request's JSON). web-llm's first
 * step teaches the share of the template's markup, which its tokenizer's
 * counts of the parts leave out. Kept per engine and model, as the counts are.
 */
import { AgentError } from '../errors';
import type { ModelEngine } from '../model/engine';

/** A prompt this short is mostly template markup the estimate does not see: its ratio says little. */
const FEWEST_TOKENS = 64;

const scales = new WeakMap<ModelEngine, { modelId: string; scale: number }>();

/** The factor to apply to the engine's counts of a prompt (1 until a step measured more). */
export function tokenScale(engine: ModelEngine): number {
  const known = scales.get(engine);
  return known?.modelId === engine.info.modelId ? known.scale : 1;
}

/** Learns from a prompt the guard counted `estimated` tokens and the engine measured `measured`. */
export function learnTokenScale(engine: ModelEngine, estimated: number, measured: number | undefined): void {
  if (!measured || !Number.isFinite(measured) || estimated < FEWEST_TOKENS) return;
  const scale = Math.ceil((measured / estimated) * 8) / 8;
  if (scale > tokenScale(engine)) scales.set(engine, { modelId: engine.info.modelId, scale });
}

/**
 * Learns from an engine's `context-overflow` that says how long the prompt really was (details.promptTokens):
 * that length when the guard now counts higher, so that fitting the step again leaves out more.
 */
export function learnFromOverflow(
  engine: ModelEngine,
  error: unknown,
  estimated: number | undefined,
): number | undefined {
  if (!(error instanceof AgentError) || error.code !== 'context-overflow' || estimated === undefined) return undefined;
  const measured = (error.details as { promptTokens?: unknown } | undefined)?.promptTokens;
  if (typeof measured !== 'number') return undefined;
  const before = tokenScale(engine);
  learnTokenScale(engine, estimated, measured);
  return tokenScale(engine) > before ? measured : undefined;
}
