/**
 * Where eval.html reads BFCL's files from. The page never ships them (they are BFCL's, Apache-2.0): a visitor
 * picks the folder they downloaded, which works in any static build, and the files never leave the tab; a page
 * served or built beside ../shared/data/bfcl/ (`npm start` in a clone that has it) has them bundled.
 */
import { bundledBfclPaths, readBundledBfcl } from '../../eval/bfcl/bundled-files';
import { BFCL_CATEGORIES, hasAnswers, type BfclCategory } from '../../eval/bfcl/categories';
import { answersFile, casesFile, type ReadBfclFile } from '../../eval/bfcl/load';

export interface BfclFiles {
  /** Where they are, as the page says it. */
  from: string;
  read: ReadBfclFile;
  /** The categories whose files are all there: the cases, and the possible answers where the category has them. */
  categories: BfclCategory[];
}

export function bundledFiles(): BfclFiles | undefined {
  const paths = new Set(bundledBfclPaths());
  if (!paths.size) return undefined;
  return {
    from: '../shared/data/bfcl/ (there when this page was served or built)',
    read: readBundledBfcl,
    categories: complete((path) => paths.has(path)),
  };
}

/**
 * The files of a picked folder (`<input webkitdirectory>`), by their path under BFCL's data folder: the cases
 * files anywhere in it, the answers in a `possible_answer` folder: BFCL's data folder, or any folder around it.
 */
export function pickedFiles(picked: Iterable<File>, folder: string): BfclFiles {
  const byPath = new Map<string, File>();
  for (const file of picked) {
    const parts = (file.webkitRelativePath || file.name).split('/');
    if (!/^BFCL_v4_\w+\.json$/.test(file.name)) continue;
    const path = parts.at(-2) === 'possible_answer' ? `possible_answer/${file.name}` : file.name;
    if (!byPath.has(path)) byPath.set(path, file);
  }
  return {
    from: `the folder you chose (${folder})`,
    read: async (path) => {
      const file = byPath.get(path);
      if (!file) throw new Error(`BFCL's ${path} is not in the folder you chose.`);
      return file.text();
    },
    categories: complete((path) => byPath.has(path)),
  };
}

function complete(has: (path: string) => boolean): BfclCategory[] {
  return BFCL_CATEGORIES.filter(
    (category) => has(casesFile(category)) && (!hasAnswers(category) || has(answersFile(category))),
  );
}
