// The stratified sample: the same cases for the same seed, every stratum represented, shares kept.
import { readFile } from 'node:fs/promises';
import { describe, expect, test } from 'vitest';
import { BFCL_CATEGORIES } from '../../../eval/bfcl/categories';
import { loadCategory } from '../../../eval/bfcl/load';
import { pickCases } from '../../../eval/bfcl/pick-cases';
import { stratifiedSample, stratumOf } from '../../../eval/bfcl/sample';
import type { BfclCase } from '../../../eval/bfcl/types';
import { hasSharedData, sharedDataPath } from '../../shared-data';

/** n cases offering `functions` functions and expecting `calls` calls. */
function cases(n: number, functions: number, calls: number, from = 0): BfclCase[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `case_${from + i}`,
    category: 'parallel_multiple' as const,
    messages: [],
    functions: Array.from({ length: functions }, (_, f) => ({ name: `f${f}`, parameters: { properties: {} } })),
    expected: Array.from({ length: calls }, () => ({ f0: {} })),
  }));
}

const ids = (sample: BfclCase[]) => sample.map((testCase) => testCase.id);
const read = (path: string) => readFile(sharedDataPath('bfcl', path), 'utf8');

describe('stratified sample', () => {
  // 80 easy cases, 15 with many tools, 5 with many calls.
  const pool = [...cases(80, 1, 1), ...cases(15, 12, 1, 80), ...cases(5, 3, 6, 95)];

  test('the same seed gives the same cases, another seed others', () => {
    expect(ids(stratifiedSample(pool, 20, 'a'))).toEqual(ids(stratifiedSample([...pool], 20, 'a')));
    expect(ids(stratifiedSample(pool, 20, 'a'))).not.toEqual(ids(stratifiedSample(pool, 20, 'b')));
  });

  test('each stratum has one case, then a share by its size; the file’s order is kept', () => {
    const sample = stratifiedSample(pool, 20, 7);
    const per = (key: string) => sample.filter((testCase) => stratumOf(testCase) === key).length;
    expect(sample).toHaveLength(20);
    // One each, then 17 shared by the 79, 14 and 4 left: 13.85, 2.45 and 0.70, the two largest remainders rounded up.
    expect(per('functions 1, calls 1')).toBe(15);
    expect(per('functions 10+, calls 1')).toBe(3);
    expect(per('functions 3-4, calls 4+')).toBe(2);
    expect(ids(sample)).toEqual([...ids(sample)].sort((a, b) => Number(a.slice(5)) - Number(b.slice(5))));
  });

  test('a limit smaller than the strata takes the largest shares; one at least the whole category', () => {
    expect(stratifiedSample(pool, 1, 'x').map(stratumOf)).toEqual(['functions 1, calls 1']);
    expect(ids(stratifiedSample(pool, 500, 'x'))).toEqual(ids(pool));
  });
});

describe.skipIf(!hasSharedData('bfcl'))('a sample of BFCL', () => {
  test('every category, 10 cases each by seed: the same ids on every run, none twice', async () => {
    const pick = { categories: BFCL_CATEGORIES, limit: 10, seed: 'bfcl' };
    const first = await pickCases(pick, read);
    expect(first).toHaveLength(110);
    expect(new Set(ids(first)).size).toBe(110);
    expect(ids(await pickCases(pick, read))).toEqual(ids(first));
    // A fact of this seed and this data, so that a change to the sampling shows: the first two ids.
    expect(ids(first).slice(0, 2)).toMatchInlineSnapshot(`
      [
        "simple_python_49",
        "simple_python_75",
      ]
    `);
  });

  test('live_multiple’s strata are all in a sample of 100', async () => {
    const all = await loadCategory('live_multiple', read);
    const strata = new Set(all.map(stratumOf));
    const sample = stratifiedSample(all, 100, 'bfcl');
    expect(new Set(sample.map(stratumOf))).toEqual(strata);
    expect(sample).toHaveLength(100);
  });
});
