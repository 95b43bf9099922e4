/**
 * The table of a run, per arm and category: accuracy (the judge's verdict)
 * with its 95% Wilson interval, the valid-call rate (calls tried that were readable and valid under their
 * schema), how often the model called nothing (for the irrelevance categories
 * that is their accuracy), prompt tokens per case (mean: what a case costs)
 * and seconds per case (median model step, as speeds are reported here).
 */
import type { ArmName } from '../arms/arm';
import { BFCL_CATEGORIES } from '../bfcl/categories';
import type { CaseResult } from './case-result';
import { markdownTable } from './markdown-table';
import { median } from './median';
import { wilsonInterval } from './wilson';

export interface SummaryRow {
  arm: ArmName;
  /** A category, or 'all' for the arm's every case. */
  category: string;
  cases: number;
  correct: number;
  accuracy: number;
  /** The accuracy's 95% Wilson interval. */
  interval: [low: number, high: number];
  /** Undefined when no call was tried. */
  validCallRate?: number;
  noCallRate: number;
  promptTokens?: number;
  seconds?: number;
  /** Runs that failed before the model answered. */
  errors: number;
  /** Mechanics check: cases whose verdict is the one the script meant. */
  asMeant?: number;
}

export function summarize(results: readonly CaseResult[]): SummaryRow[] {
  const groups = new Map<string, CaseResult[]>();
  const add = (key: string, result: CaseResult) => groups.set(key, [...(groups.get(key) ?? []), result]);
  for (const result of results) {
    add(`${result.arm}\u0000${result.category}`, result);
    add(`${result.arm}\u0000all`, result);
  }
  const arms = [...new Set(results.map((result) => result.arm))];
  const place = (row: SummaryRow) => {
    const category = (BFCL_CATEGORIES as readonly string[]).indexOf(row.category);
    return (category === -1 ? BFCL_CATEGORIES.length : category) * arms.length + arms.indexOf(row.arm);
  };
  const rows = [...groups].map(([key, group]): SummaryRow => {
    const [arm, category] = key.split('\u0000') as [ArmName, string];
    const attempts = sum(group.map((r) => r.attempts));
    const tokens = group.flatMap((r) => (r.promptTokens === undefined ? [] : [r.promptTokens]));
    const seconds = group.filter((r) => r.verdict !== 'error').map((r) => r.seconds);
    const meant = group.filter((r) => r.expected);
    const correct = group.filter((r) => r.verdict === 'correct').length;
    return {
      arm,
      category,
      cases: group.length,
      correct,
      accuracy: correct / group.length,
      interval: wilsonInterval(correct, group.length),
      ...(attempts > 0 && { validCallRate: sum(group.map((r) => r.valid)) / attempts }),
      noCallRate: group.filter((r) => r.verdict !== 'error' && r.attempts === 0).length / group.length,
      ...(tokens.length && { promptTokens: sum(tokens) / tokens.length }),
      ...(seconds.length && { seconds: median(seconds) }),
      errors: group.filter((r) => r.verdict === 'error').length,
      ...(meant.length && { asMeant: meant.filter(agrees).length }),
    };
  });
  // By category in BFCL's order, the arms side by side, each arm's whole run last.
  return rows.sort((a, b) => place(a) - place(b));
}

/** Whether the judge said what the mechanics script meant. */
export function agrees(result: CaseResult): boolean {
  const meant = result.expected;
  return !!meant && meant.verdict === result.verdict && (meant.rule === undefined || meant.rule === result.rule);
}

/** The rows as a Markdown table, for the terminal and docs/evals.md. */
export function formatTable(rows: readonly SummaryRow[]): string {
  const percent = (value: number | undefined) => (value === undefined ? '–' : `${(value * 100).toFixed(1)}%`);
  const header = [
    'arm',
    'category',
    'cases',
    'accuracy',
    '95% interval',
    'valid calls',
    'no call',
    'prompt tok/case',
    's/case (median)',
  ];
  const mechanics = rows.some((row) => row.asMeant !== undefined);
  if (mechanics) header.push('as scripted');
  const lines = rows.map((row) => {
    const cells = [
      row.arm,
      row.category,
      String(row.cases) + (row.errors ? ` (${row.errors} failed)` : ''),
      percent(row.accuracy),
      `${(row.interval[0] * 100).toFixed(1)}–${(row.interval[1] * 100).toFixed(1)}`,
      percent(row.validCallRate),
      percent(row.noCallRate),
      row.promptTokens === undefined ? '–' : row.promptTokens.toFixed(0),
      row.seconds === undefined ? '–' : row.seconds.toFixed(2),
    ];
    if (mechanics) cells.push(row.asMeant === undefined ? '–' : `${row.asMeant}/${row.cases}`);
    return cells;
  });
  return markdownTable(header, lines);
}

function sum(values: number[]): number {
  return values.reduce((total, value) => total + value, 0);
}
