// Checks DESIGN.md's dependency rules on src/, so that each folder can be read alone:
// - tools, toolkit, session, model never import flow, worker, page, extension;
// - flow imports none of worker, page, extension;
// - only model/webllm* imports @mlc-ai/web-llm, only model/wllama-engine.ts imports @wllama/wllama;
//   only session/idb-*.ts and toolkit/idb-*.ts import idb; only worker, page, extension import comlink;
// - nothing in src imports demo, test or bench.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const src = join(root, 'src');
const files = [];
(function walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (path.endsWith('.ts')) files.push(path);
  }
})(src);

const folderOf = (path) => relative(src, path).split('/')[0];
const lower = ['tools', 'toolkit', 'session', 'model'];
const upper = ['flow', 'worker', 'page', 'extension'];
const problems = [];
for (const file of files) {
  const code = readFileSync(file, 'utf8');
  const from = folderOf(file);
  const name = relative(src, file);
  for (const [, spec] of code.matchAll(
    /(?:import|export)[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g,
  )) {
    if (!spec) continue;
    if (spec.startsWith('.')) {
      const target = relative(src, resolve(dirname(file), spec));
      if (target.startsWith('..')) {
        if (/^(\.\.\/)*(demo|test|bench)\b/.test(target))
          problems.push(`${name} imports ${spec}: src never imports demo, test or bench`);
        continue;
      }
      const to = target.split('/')[0];
      if (lower.includes(from) && upper.includes(to))
        problems.push(`${name} imports ${spec}: ${from} never imports ${to}`);
      if (from === 'flow' && ['worker', 'page', 'extension'].includes(to))
        problems.push(`${name} imports ${spec}: flow never imports ${to}`);
    } else if (spec.startsWith('@mlc-ai/web-llm') && !/^model\/webllm/.test(name)) {
      problems.push(`${name} imports web-llm: only src/model/webllm* may`);
    } else if (spec.startsWith('@wllama/wllama') && !/^model\/wllama-engine\.ts$/.test(name)) {
      problems.push(`${name} imports wllama: only src/model/wllama-engine.ts may (the lazy chunk create-engine.ts imports)`);
    } else if (spec === 'idb' && !/^(session|toolkit)\/idb-[\w-]+\.ts$/.test(name)) {
      problems.push(`${name} imports idb: only the IndexedDB files of session/ and toolkit/ (named idb-*.ts) may`);
    } else if (spec === 'comlink' && !['worker', 'page', 'extension'].includes(from)) {
      problems.push(`${name} imports comlink: only worker, page and extension may`);
    }
  }
}
if (problems.length) {
  console.error(`Dependency rules broken (see DESIGN.md, "Layout"):\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(`Dependency rules hold for ${files.length} files in src/.`);
