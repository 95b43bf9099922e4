/**
 * An arm's wrong answers by kind, read off a results file, so that the
 * failure analysis in docs/evals.md is counted by a rule, not by hand:
 * a turn the token cap cut (a call begun but not read, the answer as long as
 * the cap), a call where none was wanted, no call where one was, fewer or
 * more calls than wanted, the wrong tool, and the rest (a wrong, missing or
 * unexpected argument), in that order of precedence.
 */
import type { ArmName } from '../arms/arm';
import type { CaseResult } from './case-result';
import { AGREEMENTS, agreement, type Agreement } from './unconstrained';

export const FAILURE_KINDS = {
  'cut-by-cap': 'a turn cut by the token cap',
  unreadable: 'a call that could not be read',
  'call-where-none': 'a call where none was wanted',
  'no-call': 'no call where one was wanted',
  'fewer-calls': 'fewer calls than wanted',
  'more-calls': 'more calls than wanted',
  'wrong-tool': 'the wrong tool',
  argument: 'a wrong, missing or unexpected argument',
  failed: 'the run failed before the model answered',
} as const;

export type FailureKind = keyof typeof FAILURE_KINDS;

/** The judge's wording of a wrong count (eval/bfcl/judge.ts); the test holds the two together. */
const WRONG_COUNT = /^The model made (\d+) calls?; (\d+) expected\.$/;

/** Undefined for a right answer. `maxTokens` is the run's cap, when it set one. */
export function failureKind(result: CaseResult, maxTokens?: number): FailureKind | undefined {
  if (result.verdict === 'correct') return undefined;
  if (result.verdict === 'error') return 'failed';
  const capped = maxTokens !== undefined && (result.completionTokens ?? 0) >= maxTokens;
  if (result.unreadable > 0) return capped ? 'cut-by-cap' : 'unreadable';
  if (result.verdict === 'invalid') return 'unreadable';
  const rule = result.rule ?? '';
  if (rule.startsWith('irrelevance_error')) return 'call-where-none';
  if (rule.startsWith('relevance_error')) return 'no-call';
  const count = WRONG_COUNT.exec(result.why ?? '');
  if (rule.endsWith(':wrong_count') && count) {
    const [made, wanted] = [Number(count[1]), Number(count[2])];
    return made === 0 ? 'no-call' : made < wanted ? 'fewer-calls' : 'more-calls';
  }
  if (rule.endsWith(':wrong_func_name')) return 'wrong-tool';
  return 'argument';
}

export interface FailureRow {
  arm: ArmName;
  kind: FailureKind;
  /** The cases, in the file's order. */
  ids: string[];
  /** With `unconstrained`: how many of them the same model answered how, without our grammar (unconstrained.ts). */
  unconstrained?: Partial<Record<Agreement, number>>;
}

export interface FailureKindOptions {
  /** The run's token cap, when it set one. */
  maxTokens?: number;
  /** An arm of the same file that decodes freely (native, ours-no-grammar), to hold the others' answers against. */
  unconstrained?: ArmName;
}

/** Per arm, its wrong answers grouped by kind, the commonest first. */
export function failureKinds(
  results: readonly CaseResult[],
  { maxTokens, unconstrained }: FailureKindOptions = {},
): FailureRow[] {
  const free = new Map(results.filter((result) => result.arm === unconstrained).map((result) => [result.id, result]));
  const rows = new Map<string, FailureRow>();
  for (const result of results) {
    const kind = failureKind(result, maxTokens);
    if (!kind) continue;
    const key = `${result.arm} ${kind}`;
    if (!rows.has(key)) rows.set(key, { arm: result.arm, kind, ids: [] });
    const row = rows.get(key)!;
    row.ids.push(result.id);
    const other = result.arm === unconstrained ? undefined : free.get(result.id);
    if (other) {
      const how = agreement(result, other);
      row.unconstrained = { ...row.unconstrained, [how]: (row.unconstrained?.[how] ?? 0) + 1 };
    }
  }
  const arms = [...new Set(results.map((result) => result.arm))];
  return [...rows.values()].sort((a, b) => arms.indexOf(a.arm) - arms.indexOf(b.arm) || b.ids.length - a.ids.length);
}

/**
 * The rows as a Markdown table: each arm's kinds with their counts and cases, and with `unconstrained`
 * what that arm wrote on the same cases.
 */
export function formatFailureKinds(
  rows: readonly FailureRow[],
  results: readonly CaseResult[],
  unconstrained?: ArmName,
): string {
  const wrong = (arm: ArmName) => results.filter((result) => result.arm === arm && result.verdict !== 'correct');
  const cases = (arm: ArmName) => results.filter((result) => result.arm === arm).length;
  const free = (row: FailureRow) =>
    Object.entries(AGREEMENTS)
      .filter(([how]) => row.unconstrained?.[how as Agreement])
      .map(([how, words]) => `${words} ${row.unconstrained![how as Agreement]}`)
      .join(', ');
  const extra = unconstrained ? [`${unconstrained} wrote, unconstrained`] : [];
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const lines = [
    line(['arm', 'kind', 'count', ...extra, 'cases']),
    line(['---', '---', '---', ...extra.map(() => '---'), '---']),
  ];
  let arm: ArmName | undefined;
  for (const row of rows) {
    if (row.arm !== arm) {
      arm = row.arm;
      lines.push(
        line([arm, '**wrong, all kinds**', `${wrong(arm).length} of ${cases(arm)}`, ...extra.map(() => ''), '']),
      );
    }
    const compared = unconstrained ? [row.arm === unconstrained ? '–' : free(row)] : [];
    lines.push(line([row.arm, FAILURE_KINDS[row.kind], String(row.ids.length), ...compared, row.ids.join(', ')]));
  }
  return lines.join('\n');
}
