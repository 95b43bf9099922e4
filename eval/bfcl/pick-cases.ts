/** The cases of a run: each category read, then sampled by the same seed (all of it without a limit). */
import type { BfclCategory } from './categories';
import { loadCategory, type ReadBfclFile } from './load';
import { stratifiedSample } from './sample';
import type { BfclCase } from './types';

export interface CasePick {
  categories: readonly BfclCategory[];
  /** Cases per category; absent: all of them. */
  limit?: number;
  seed: string;
}

export async function pickCases(pick: CasePick, read: ReadBfclFile): Promise<BfclCase[]> {
  const perCategory = await Promise.all(
    pick.categories.map(async (category) => {
      const cases = await loadCategory(category, read);
      return pick.limit === undefined ? cases : stratifiedSample(cases, pick.limit, pick.seed);
    }),
  );
  return perCategory.flat();
}
