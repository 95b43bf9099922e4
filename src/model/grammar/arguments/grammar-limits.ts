/**
 * How far the grammar of a call's arguments holds a schema's bounds: past
 * these, a bound is left to the validator (GrammarBuild.loosen). Each bounded
 * character or repetition is a grammar state, and every state costs a pass
 * over the vocabulary when web-llm compiles the step's grammar: maxLength 60
 * costs seconds.
 */

/** String length bounds the grammar holds, in characters. */
export const LENGTH_LIMIT = 8;
/** Repetition counts (in patterns) and list lengths the grammar holds. */
export const COUNT_LIMIT = 16;
/** The copies nested repetitions of a pattern may expand to together. */
export const EXPANSION_LIMIT = 64;
/** A const or enum value nested deeper than this is not written (the grammar would nest as deep). */
export const MAX_LITERAL_DEPTH = 16;

/** `item` repeated min to max times (max Infinity: no upper bound). */
export function repeat(item: string, min: number, max: number): string {
  if (max === 0) return '""';
  if (max === Infinity) return min === 0 ? `(${item})*` : min === 1 ? `(${item})+` : `(${item}){${min},}`;
  if (min === 0 && max === 1) return `(${item})?`;
  if (min === max) return min === 1 ? `(${item})` : `(${item}){${min}}`;
  return `(${item}){${min},${max}}`;
}
