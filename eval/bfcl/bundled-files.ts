/**
 * BFCL's files for a page served or built by vite: '@shared-data' is
 * ../shared/data (vite.config.ts), each file its own chunk, fetched only when
 * a run needs its category. Without the folder there are none, and a read
 * says where the files belong.
 */
import type { ReadBfclFile } from './load';

const files = import.meta.glob<string>('@shared-data/bfcl/**/*.json', { query: '?raw', import: 'default' });

export function hasBundledBfcl(): boolean {
  return Object.keys(files).length > 0;
}

/** The paths under bfcl/ of the files there were, e.g. `possible_answer/BFCL_v4_multiple.json`. */
export function bundledBfclPaths(): string[] {
  return Object.keys(files).map((key) => key.slice(key.lastIndexOf('/bfcl/') + '/bfcl/'.length));
}

export const readBundledBfcl: ReadBfclFile = async (path) => {
  const key = Object.keys(files).find((candidate) => candidate.endsWith(`/bfcl/${path}`));
  if (!key)
    throw new Error(
      `BFCL's ${path} was not there when this page was built: put BFCL's data in ../shared/data/bfcl/ (see its README) and serve or build again.`,
    );
  return files[key]!();
};
