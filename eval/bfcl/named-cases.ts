/**
 * The cases a run names by id (`npm run eval -- --cases=…`), in the order named: to ask a few cases again
 * (after a change, or with other options) without the sample around them. Each id says its category.
 */
import { isCategory, type BfclCategory } from './categories';
import { loadCategory, type ReadBfclFile } from './load';
import type { BfclCase } from './types';

/** "live_irrelevance_45-2-33" → "live_irrelevance": BFCL's ids are the category, then the case's numbers. */
export function categoryOfId(id: string): BfclCategory {
  const name = id.replace(/_\d+(-\d+)*$/, '');
  if (name === id || !isCategory(name))
    throw new Error(`"${id}" is not the id of a case in a category this eval runs (e.g. simple_python_12).`);
  return name;
}

export async function namedCases(ids: readonly string[], read: ReadBfclFile): Promise<BfclCase[]> {
  const categories = [...new Set(ids.map(categoryOfId))];
  const loaded = (await Promise.all(categories.map((category) => loadCategory(category, read)))).flat();
  const byId = new Map(loaded.map((testCase) => [testCase.id, testCase]));
  return ids.map((id) => {
    const found = byId.get(id);
    if (!found) throw new Error(`BFCL's ${categoryOfId(id)} has no case "${id}".`);
    return found;
  });
}
