// The run as one JSON file the person downloads: what was run, on what, the table and every case.
import { describeModel } from '../../eval/arms/arm';
import type { CaseResult } from '../../eval/run/case-result';
import { summarize } from '../../eval/run/summary';
import type { Setup } from './setup-form';

export function exportResults(setup: Setup, results: readonly CaseResult[], startedAt: Date): void {
  const report = {
    benchmark: 'BFCL v4 single-turn (ShishirPatil/gorilla), judged as its AST checker does',
    runtime: 'inpage-agent',
    model: describeModel(setup.model),
    arms: setup.arms.map((arm) => arm.name),
    categories: setup.categories,
    casesPerCategory: setup.limit,
    seed: setup.seed,
    maxTokens: setup.maxTokens,
    startedAt: startedAt.toISOString(),
    exportedAt: new Date().toISOString(),
    userAgent: navigator.userAgent,
    summary: summarize(results),
    results,
  };
  const blob = new Blob([`${JSON.stringify(report, null, 2)}\n`], { type: 'application/json' });
  const link = Object.assign(document.createElement('a'), {
    href: URL.createObjectURL(blob),
    download: `bfcl-${describeModel(setup.model).replace(/[^\w.-]+/g, '_')}-${startedAt.toISOString().slice(0, 19).replace(/:/g, '-')}.json`,
  });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
}
