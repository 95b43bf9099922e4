/**
 * @mlc-ai/web-xgrammar (the grammar engine web-llm embeds, same wasm) in Node.
 *
 * Why not a plain import: its lib/index.js is a UMD bundle inside a
 * `"type": "module"` package, so Node loads it as an ES module, where the
 * bundle's CommonJS branch (`require`, `__filename`) does not exist and it
 * throws. Compiled as the CommonJS script it is, it runs unchanged, and the
 * node-mode tests are several times faster than the same work in Chromium.
 */
import Module, { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';

type XGrammar = typeof import('@mlc-ai/web-xgrammar');

/** The parts of Node's CommonJS loader that load one file (not in @types/node). */
interface CommonJsModule {
  filename: string;
  paths: string[];
  exports: unknown;
  _compile(source: string, filename: string): void;
}
interface CommonJsLoader {
  new (id: string): CommonJsModule;
  _nodeModulePaths(from: string): string[];
}

function loadXGrammar(): XGrammar {
  const file = createRequire(import.meta.url).resolve('@mlc-ai/web-xgrammar');
  const Loader = Module as unknown as CommonJsLoader;
  const bundle = new Loader(file);
  bundle.filename = file;
  bundle.paths = Loader._nodeModulePaths(file);
  bundle._compile(readFileSync(file, 'utf8'), file);
  return bundle.exports as XGrammar;
}

export const xgrammar = loadXGrammar();
export const { Grammar, GrammarCompiler, GrammarMatcher, TokenizerInfo, Testings } = xgrammar;
export type { CompiledGrammar, GrammarCompiler as Compiler, GrammarMatcher as Matcher } from '@mlc-ai/web-xgrammar';
