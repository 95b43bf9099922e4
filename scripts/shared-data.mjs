// Public data the tests and benches read, kept outside the repository (never copied in):
// ../shared/data/ beside the project, or wherever INPAGE_SHARED_DATA points.
import { existsSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');

const given = resolve(process.env.INPAGE_SHARED_DATA ?? join(root, '../shared/data'));
// Its real path: vite serves a file only from an allowed folder by where the file really is, so a symlinked
// ../shared would have every BFCL file of eval.html refused (the page then never started its run).
export const sharedDataDir = existsSync(given) ? realpathSync(given) : given;

/** Each folder the tests read, and where its files come from. */
export const sharedDataSources = {
  'json-schema-test-suite':
    'the official JSON-Schema-Test-Suite (json-schema-org/JSON-Schema-Test-Suite, tests/draft2020-12 and tests/draft7)',
  'tool-parser-corpora': "model outputs from vLLM's, SGLang's, llama.cpp's and ollama's tool-call parser tests",
  bfcl: "the Berkeley Function Calling Leaderboard's single-turn categories (ShishirPatil/gorilla)",
};

/** The folders of sharedDataSources that are not there. */
export function missingSharedData() {
  return Object.keys(sharedDataSources).filter((name) => !existsSync(join(sharedDataDir, name)));
}

/** One line that names the missing folders and where their files come from. */
export function describeMissingSharedData(missing = missingSharedData()) {
  const relative = process.env.INPAGE_SHARED_DATA ? sharedDataDir : '../shared/data';
  return `${relative}/ lacks ${missing.join(', ')}: ${missing.map((name) => sharedDataSources[name]).join('; ')}. Put them there (see ../shared/data/README.md) or set INPAGE_SHARED_DATA to a folder that has them.`;
}
