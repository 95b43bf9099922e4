/**
 * The decision layer's parts with their measured defaults applied, without
 * zod (createAgent checked the values with decisions.ts's schema before they
 * crossed). Why each default is what it is: docs/evals.md, "The decision
 * layer". A part whose engine lacks what it asks for (ModelEngine.callChance,
 * continueTurn) does nothing there.
 */
import type { DecisionOptions, Decisions } from './decisions';

const DECISION_DEFAULTS: Decisions = {
  callOrAnswer: true,
  // Measured in the page suite: a gain in two sittings of three, 34 of 48 against 28 of 48 with givenValues under
  // it, inside the intervals (docs/evals.md, "Only the tools that fit" and "The turn that would not end").
  toolsThatFit: false,
  // Held to fill_form by the email address it takes, the 0.5B wrote its refusal as the message: no request it
  // held was right in the page suite (docs/evals.md).
  givenValues: false,
  moreCalls: true,
  retry: true,
  claims: true,
};

const OFF: Decisions = {
  callOrAnswer: false,
  toolsThatFit: false,
  givenValues: false,
  moreCalls: false,
  retry: false,
  claims: false,
};

/**
 * The parts a run takes. Left unset, the layer is on for the engines whose model decides (llama.cpp and
 * web-llm) and off for a script or a page's own engine, which decide for themselves.
 */
export function decisionsOf(options: DecisionOptions, engine: string): Decisions {
  const given = options.decisions ?? (engine === 'wllama' || engine === 'webllm');
  if (given === false) return OFF;
  if (given === true) return DECISION_DEFAULTS;
  const parts = { ...DECISION_DEFAULTS };
  for (const key of Object.keys(parts) as (keyof Decisions)[]) {
    const value = given[key];
    if (value !== undefined) parts[key] = value;
  }
  return parts;
}
