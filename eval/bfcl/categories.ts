/**
 * The single-turn categories we run, and which of BFCL's checkers judges each.
 * BFCL picks the checker from the category's name (eval_runner.py, ast_checker.py):
 * "irrelevance" or "relevance" in it first, then "parallel", then "multiple",
 * else the simple checker. `parallel_multiple` is therefore judged as parallel.
 */
export const BFCL_CATEGORIES = [
  'simple_python',
  'multiple',
  'parallel',
  'parallel_multiple',
  'irrelevance',
  'live_simple',
  'live_multiple',
  'live_parallel',
  'live_parallel_multiple',
  'live_irrelevance',
  'live_relevance',
] as const;

export type BfclCategory = (typeof BFCL_CATEGORIES)[number];

/** irrelevance: no call is right; relevance: any call is right; the others compare the calls with the answers. */
export type CheckerKind = 'simple' | 'multiple' | 'parallel' | 'irrelevance' | 'relevance';

export function checkerFor(category: string): CheckerKind {
  if (category.includes('irrelevance')) return 'irrelevance';
  if (category.includes('relevance')) return 'relevance';
  if (category.includes('parallel')) return 'parallel';
  if (category.includes('multiple')) return 'multiple';
  return 'simple';
}

/** Whether the category has possible answers (`possible_answer/BFCL_v4_<category>.json`). */
export function hasAnswers(category: string): boolean {
  const kind = checkerFor(category);
  return kind !== 'irrelevance' && kind !== 'relevance';
}

export function isCategory(name: string): name is BfclCategory {
  return (BFCL_CATEGORIES as readonly string[]).includes(name);
}
