// Runs every bench/*.bench.ts suite in this page, one after another, and
// hands the rows to whoever drives the browser (scripts/bench.mjs).
import { pageOption, type BenchRow, type BenchSuite } from './harness';

const suites = import.meta.glob<{ default: BenchSuite }>('./*.bench.ts');
const only = pageOption('only');
const rows: BenchRow[] = [];
const failures: string[] = [];
for (const [path, load] of Object.entries(suites)) {
  if (only && !path.includes(only)) continue;
  try {
    rows.push(...(await (await load()).default()));
  } catch (error) {
    failures.push(`${path}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  }
}
document.querySelector('#out')!.textContent = JSON.stringify({ rows, failures }, null, 2);
(window as unknown as { __bench: unknown }).__bench = { rows, failures };
