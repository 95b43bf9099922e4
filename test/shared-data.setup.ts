/**
 * Public data from other repositories lives outside this one, in ../shared/data/.
 * A fresh clone without it skips the tests that read it, saying so once; CI must
 * never pass by skipping them, so there a missing folder fails the run.
 */
import { describeMissingSharedData, missingSharedData } from '../scripts/shared-data.mjs';

export default function checkSharedData(): void {
  const missing = missingSharedData();
  // Every project runs the global setups; one line is enough.
  if (missing.length === 0 || process.env.INPAGE_SHARED_DATA_CHECKED) return;
  process.env.INPAGE_SHARED_DATA_CHECKED = '1';
  const line = describeMissingSharedData(missing);
  if (process.env.CI) throw new Error(`CI needs the public test data: ${line}`);
  console.warn(`Skipping the tests that read it: ${line}`);
}
