// `npm run eval -- --cases=…`: the cases named, whole and in their order, from each id's own category.
import { readFile } from 'node:fs/promises';
import { describe, expect, test } from 'vitest';
import { categoryOfId, namedCases } from '../../../eval/bfcl/named-cases';
import { hasSharedData, sharedDataPath } from '../../shared-data';

const read = (path: string) => readFile(sharedDataPath('bfcl', path), 'utf8');

describe('cases named by id', () => {
  test('an id says its category, also one whose name holds another category’s', () => {
    expect(categoryOfId('simple_python_312')).toBe('simple_python');
    expect(categoryOfId('parallel_multiple_109')).toBe('parallel_multiple');
    expect(categoryOfId('live_irrelevance_45-2-33')).toBe('live_irrelevance');
    expect(categoryOfId('live_multiple_773-171-6')).toBe('live_multiple');
  });

  test('an id of no category this eval runs is refused, saying what an id looks like', () => {
    expect(() => categoryOfId('java_12')).toThrow(/"java_12" is not the id of a case .*simple_python_12/);
    expect(() => categoryOfId('parallel')).toThrow(/not the id of a case/);
  });

  test.skipIf(!hasSharedData('bfcl'))('reads the cases from BFCL’s files, in the order named', async () => {
    const ids = ['parallel_multiple_109', 'irrelevance_29', 'parallel_72', 'live_irrelevance_45-2-33'];
    const cases = await namedCases(ids, read);
    expect(cases.map((testCase) => testCase.id)).toEqual(ids);
    expect(cases.map((testCase) => testCase.category)).toEqual([
      'parallel_multiple',
      'irrelevance',
      'parallel',
      'live_irrelevance',
    ]);
    // Whole: the functions offered and, where the category has them, the possible answers.
    expect(cases[0]!.expected?.length).toBeGreaterThan(1);
    expect(cases[1]!.functions.map((f) => f.name)).toContain('get_cell_function');
    await expect(namedCases(['parallel_9999'], read)).rejects.toThrow(`BFCL's parallel has no case "parallel_9999".`);
  });
});
