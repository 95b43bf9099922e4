// The results table, redrawn from every result so far: per category and arm, then each arm's whole run.
import type { CaseResult } from '../../eval/run/case-result';
import { summarize } from '../../eval/run/summary';

const percent = (value: number | undefined) => (value === undefined ? '–' : `${(value * 100).toFixed(1)}%`);

export function showSummary(results: readonly CaseResult[]): void {
  const rows = summarize(results);
  const scripted = rows.some((row) => row.asMeant !== undefined);
  document.querySelector<HTMLElement>('#as-scripted-head')!.hidden = !scripted;
  document.querySelector('#summary tbody')!.replaceChildren(
    ...rows.map((row) => {
      const tr = document.createElement('tr');
      tr.className = row.category === 'all' ? 'total' : '';
      tr.dataset.category = row.category;
      tr.dataset.arm = row.arm;
      const cells = [
        row.category === 'all' ? 'all categories' : row.category,
        row.arm,
        String(row.cases) + (row.errors ? ` (${row.errors} failed)` : ''),
        percent(row.accuracy),
        `${(row.interval[0] * 100).toFixed(1)}–${(row.interval[1] * 100).toFixed(1)}%`,
        percent(row.validCallRate),
        percent(row.noCallRate),
        row.promptTokens === undefined ? '–' : row.promptTokens.toFixed(0),
        row.seconds === undefined ? '–' : row.seconds.toFixed(2),
        ...(scripted ? [`${row.asMeant ?? 0}/${row.cases}`] : []),
      ];
      tr.append(...cells.map((text) => Object.assign(document.createElement('td'), { textContent: text })));
      return tr;
    }),
  );
}
