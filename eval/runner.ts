// The page `npm run eval` drives (scripts/eval.mjs): the run named by the URL's parameters (BFCL, or with
// suite=page the page-task suite), each result handed to the script as it is judged (window.__evalReport), the
// table left in window.__evalDone.
import { armNamed } from './arms/arms';
import { modelFromParams } from './arms/parse-model';
import { readBundledBfcl } from './bfcl/bundled-files';
import { BFCL_CATEGORIES, isCategory, type BfclCategory } from './bfcl/categories';
import { namedCases } from './bfcl/named-cases';
import { pickCases } from './bfcl/pick-cases';
import { shuffled } from './bfcl/sample';
import type { BfclCase } from './bfcl/types';
import type { CaseResult } from './run/case-result';
import type { PageResult } from './page/page-result';
import { runPageSuitePage } from './page/page-suite-page';
import { runEval } from './run/run-eval';
import { formatTable, summarize } from './run/summary';

declare global {
  interface Window {
    __evalReport?: (result: CaseResult | PageResult) => Promise<void>;
    __evalProgress?: (progress: { index: number; total: number; id: string; arm: string }) => Promise<void>;
    __evalDone?: { table: string; cases: number } | { error: string };
    /** Case and arm pairs judged by the run this one resumes (judgedKey), set by the script before the page loads. */
    __evalJudged?: string[];
    /** The table of the cases judged so far (a run stopped before its end still reports them). */
    __evalTable?: () => { table: string; cases: number };
  }
}

const params = new URLSearchParams(location.search);
const out = document.querySelector('#out')!;

function categories(list: string | null): BfclCategory[] {
  if (!list) return [...BFCL_CATEGORIES];
  return list.split(',').map((name) => {
    if (!isCategory(name)) throw new Error(`No BFCL category "${name}"; use: ${BFCL_CATEGORIES.join(', ')}.`);
    return name;
  });
}

/**
 * One case of each category, then the next of each: a run stopped early has covered every category alike.
 * Each category's cases go in an order shuffled by the seed, so the cases judged by then are a random part
 * of its sample, not the first ones of BFCL's file (which groups alike cases).
 */
function inRounds(cases: readonly BfclCase[], seed: string): BfclCase[] {
  const byCategory = new Map<string, BfclCase[]>();
  for (const testCase of shuffled(cases, `${seed}/order`))
    byCategory.set(testCase.category, [...(byCategory.get(testCase.category) ?? []), testCase]);
  const longest = Math.max(0, ...[...byCategory.values()].map((list) => list.length));
  return Array.from({ length: longest }, (_, round) =>
    [...byCategory.values()].flatMap((list) => (list[round] ? [list[round]] : [])),
  ).flat();
}

async function runBfcl(): Promise<void> {
  const seed = params.get('seed') ?? 'bfcl';
  const limit = params.get('limit');
  const named = params.get('cases')?.split(',');
  const sample = named
    ? await namedCases(named, readBundledBfcl)
    : await pickCases(
        { categories: categories(params.get('categories')), seed, ...(limit && { limit: Number(limit) }) },
        readBundledBfcl,
      );
  const arms = (params.get('arms') ?? 'ours').split(',').map(armNamed);
  const model = modelFromParams(params);
  const maxTokens = params.get('maxTokens');
  const through = params.get('through') === 'loop' ? 'loop' : undefined;
  // Cases named are asked in the order named.
  const cases = named ? sample : inRounds(sample, seed);
  const results: CaseResult[] = [];
  let planned = 0;
  window.__evalTable = () => ({ table: formatTable(summarize(results)), cases: results.length });
  const run = runEval(
    {
      cases,
      arms,
      model,
      seed,
      ...(maxTokens && { maxTokens: Number(maxTokens) }),
      ...(through && { through }),
      judged: new Set(window.__evalJudged ?? []),
    },
    {
      onCase: (testCase, arm, index, total) => {
        planned = total;
        void window.__evalProgress?.({ index, total, id: testCase.id, arm: arm.name });
      },
    },
  );
  for await (const result of run) {
    results.push(result);
    out.textContent = `${results.length} of ${planned}`;
    await window.__evalReport?.(result);
  }
  const table = formatTable(summarize(results));
  out.textContent = table;
  window.__evalDone = { table, cases: results.length };
}

try {
  if (params.get('suite') === 'page') await runPageSuitePage(params, out);
  else await runBfcl();
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  out.textContent = message;
  window.__evalDone = { error: message };
}
