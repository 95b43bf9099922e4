/**
 * The page suite in the runner page (eval/runner.ts, driven by npm run eval
 * -- --suite=page): the conversations and arms the URL names, on its model,
 * each request's result handed to the script as it is judged, the table left
 * for it at the end (or, stopped, whenever it asks).
 */
import { armNamed } from '../arms/arms';
import { modelFromParams } from '../arms/parse-model';
import { conversationsNamed } from './conversations';
import type { PageResult } from './page-result';
import { formatPageTable, summarizePage } from './page-summary';
import { runPageSuite } from './run-page-suite';

export async function runPageSuitePage(params: URLSearchParams, out: Element): Promise<void> {
  const results: PageResult[] = [];
  const table = () => ({ table: formatPageTable(summarizePage(results)), cases: results.length });
  window.__evalTable = table;
  let planned = 0;
  const run = runPageSuite(
    {
      conversations: conversationsNamed(params.get('conversations')?.split(',')),
      arms: (params.get('arms') ?? 'ours').split(',').map(armNamed),
      model: modelFromParams(params),
      judged: new Set(window.__evalJudged ?? []),
    },
    {
      onRequest: (id, arm, index, total) => {
        planned = total;
        void window.__evalProgress?.({ index, total, id, arm: arm.name });
      },
    },
  );
  for await (const result of run) {
    results.push(result);
    out.textContent = `${results.length} of ${planned}`;
    await window.__evalReport?.(result);
  }
  const done = table();
  out.textContent = done.table;
  window.__evalDone = done;
}
