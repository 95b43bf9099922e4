// Checks DESIGN.md's dependency rules on src/, so that each folder can be read alone:
// - tools, toolkit, session, model never import contract, flow, worker, page, extension;
// - contract (the page ↔ worker contract) imports none of flow, worker, page, extension;
// - flow imports none of worker, page, extension;
// - page imports nothing of flow (it reaches the loop only through contract, across the worker boundary);
// - model imports nothing of session (an engine knows requests and deltas, not the session's log);
// - model/grammar, model/readers and model/gbnf import no model/formats or model/families file, not even its
//   types: they are given a format's pieces (a GrammarStep, an OutputVocabulary) and know no family;
// - only model/engines/webllm/ imports @mlc-ai/web-llm, only model/engines/wllama/wllama-engine.ts and its loader
//   wllama-load.ts (the lazy chunk's files) import @wllama/wllama;
// - model/ has no flat engine files: an engine's files live in model/engines/<engine>/ (no model/wllama-*.ts,
//   model/webllm-*.ts, model/*-engine.ts at the top of model/), and no engine's folder imports another's
//   (what two engines share lives beside them, in model/engines/);
//   only session/idb-*.ts and toolkit/idb-*.ts import idb; only contract, worker, page, extension import comlink;
// - only ai-sdk imports ai and @ai-sdk/*, and ai-sdk reaches the rest of src at run time only through
//   index.ts (its build imports that as the package 'inpage-agent', so an app holds one runtime);
//   nothing else in src imports ai-sdk;
// - chat (the <inpage-agent-chat> element, page-side UI) imports nothing of src but index.ts, the public
//   page API, not even a type (its build imports that as the package 'inpage-agent'): never the worker, the
//   flow or the engines; nothing in src imports chat but embed.ts (the script-tag build defines it too);
// - isolation (a classic script the browser runs alone, as a page script and as a service worker) imports
//   nothing, and nothing imports it;
// - nothing in src imports demo, test, bench or eval;
// - eval (npm run eval, eval.html's engine) imports src, never test, and of demo only demo/app/ (the sample page's
//   tools, which import only src): the page-task suite measures the demo's own tools, not a copy that drifts.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const src = join(root, 'src');
const evalDir = join(root, 'eval');
function tsFiles(dir, files = []) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) tsFiles(path, files);
    else if (path.endsWith('.ts')) files.push(path);
  }
  return files;
}
const files = tsFiles(src);
// `import … from 'x'`, `export … from 'x'`, `import('x')` and `import 'x'`: the module is whichever group matched.
const IMPORTS =
  /(?:import|export)[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|import\s*['"]([^'"]+)['"]/g;
const modules = (code) => [...code.matchAll(IMPORTS)].map((match) => match[1] ?? match[2] ?? match[3]);
// `import type …` and `export type …` vanish from the output; every other import stays (verbatimModuleSyntax).
const TYPE_ONLY = /(?:import|export)\s+type\s[^'"]*?from\s*['"]([^'"]+)['"]/g;
/** The modules a file imports at run time: all but those it names only in `import type` / `export type`. */
const valueModules = (code) => {
  const count = new Map();
  for (const spec of modules(code)) count.set(spec, (count.get(spec) ?? 0) + 1);
  for (const [, spec] of code.matchAll(TYPE_ONLY)) count.set(spec, count.get(spec) - 1);
  return new Set([...count].filter(([, n]) => n > 0).map(([spec]) => spec));
};

const folderOf = (path) => relative(src, path).split('/')[0];
const lower = ['tools', 'toolkit', 'session', 'model'];
const isAiSdkPackage = (spec) => spec === 'ai' || spec.startsWith('ai/') || spec.startsWith('@ai-sdk/');
const upper = ['contract', 'flow', 'worker', 'page', 'extension'];
const hosts = ['worker', 'page', 'extension'];
const FAMILY_BLIND = ['model/grammar', 'model/readers', 'model/gbnf'];
const FAMILY_KNOWING = ['model/formats', 'model/families'];
const problems = [];
for (const file of files) {
  const code = readFileSync(file, 'utf8');
  const from = folderOf(file);
  const name = relative(src, file);
  const values = valueModules(code);
  for (const spec of modules(code)) {
    if (isAiSdkPackage(spec) && from !== 'ai-sdk') problems.push(`${name} imports ${spec}: only src/ai-sdk may`);
    if (spec.startsWith('.')) {
      const target = relative(src, resolve(dirname(file), spec));
      if (from !== 'ai-sdk' && target.split('/')[0] === 'ai-sdk')
        problems.push(`${name} imports ${spec}: nothing in src imports ai-sdk (it is an entry of its own)`);
      if (from === 'isolation' || target.split('/')[0] === 'isolation')
        problems.push(
          `${name} imports ${spec}: isolation imports nothing and nothing imports it (a script of its own)`,
        );
      if (from === 'chat' && target !== 'index' && !target.startsWith('chat/'))
        problems.push(`${name} imports ${spec}: chat reaches the runtime only through ../index, the public page API`);
      if (from !== 'chat' && name !== 'embed.ts' && target.split('/')[0] === 'chat')
        problems.push(`${name} imports ${spec}: nothing in src imports chat but embed.ts (it is an entry of its own)`);
      if (from === 'ai-sdk' && values.has(spec) && target !== 'index' && !target.startsWith('ai-sdk/'))
        problems.push(
          `${name} imports ${spec}: ai-sdk reaches the runtime only through ../index (type-only imports may come from anywhere)`,
        );
      if (target.startsWith('..')) {
        if (/^(\.\.\/)*(demo|test|bench|eval)\b/.test(target))
          problems.push(`${name} imports ${spec}: src never imports demo, test, bench or eval`);
        continue;
      }
      const to = target.split('/')[0];
      if (lower.includes(from) && upper.includes(to))
        problems.push(`${name} imports ${spec}: ${from} never imports ${to}`);
      if (from === 'model' && to === 'session') problems.push(`${name} imports ${spec}: model never imports session`);
      const part = (path) => path.split('/').slice(0, 2).join('/');
      const engineOf = (path) => /^model\/engines\/([^/]+)\//.exec(path)?.[1];
      if (engineOf(name) && engineOf(target) && engineOf(name) !== engineOf(target))
        problems.push(
          `${name} imports ${spec}: one engine never imports another's files (share them in model/engines/)`,
        );
      if (FAMILY_BLIND.includes(part(name)) && FAMILY_KNOWING.includes(part(target)))
        problems.push(
          `${name} imports ${spec}: ${part(name)} knows no format or family (take the format's pieces as an argument)`,
        );
      if ((from === 'flow' || from === 'contract') && (hosts.includes(to) || (from === 'contract' && to === 'flow')))
        problems.push(`${name} imports ${spec}: ${from} never imports ${to}`);
      if (from === 'page' && to === 'flow')
        problems.push(
          `${name} imports ${spec}: page never imports flow (the loop is the worker's; share through contract)`,
        );
    } else if (spec.startsWith('@mlc-ai/web-llm') && !/^model\/engines\/webllm\//.test(name)) {
      problems.push(`${name} imports web-llm: only src/model/engines/webllm/ may`);
    } else if (spec.startsWith('@wllama/wllama') && !/^model\/engines\/wllama\/wllama-(engine|load)\.ts$/.test(name)) {
      problems.push(
        `${name} imports wllama: only src/model/engines/wllama/wllama-engine.ts and wllama-load.ts may (the lazy chunk wllama-lazy-engine.ts imports)`,
      );
    } else if (spec === 'idb' && !/^(session|toolkit)\/idb-[\w-]+\.ts$/.test(name)) {
      problems.push(`${name} imports idb: only the IndexedDB files of session/ and toolkit/ (named idb-*.ts) may`);
    } else if (spec === 'comlink' && !['contract', ...hosts].includes(from)) {
      problems.push(`${name} imports comlink: only contract, worker, page and extension may`);
    }
  }
}
for (const file of files) {
  const name = relative(src, file);
  if (/^model\/((wllama|webllm)[^/]*|[^/]*-engine)\.ts$/.test(name))
    problems.push(`${name} is an engine's file at the top of model/: move it to model/engines/<engine>/`);
}
const evalFiles = tsFiles(evalDir);
for (const file of evalFiles) {
  for (const spec of modules(readFileSync(file, 'utf8'))) {
    if (!spec.startsWith('.')) continue;
    const target = relative(root, resolve(dirname(file), spec));
    if (/^test\//.test(target) || (/^demo\//.test(target) && !/^demo\/app\//.test(target)))
      problems.push(`${relative(root, file)} imports ${spec}: eval never imports test, nor demo but demo/app/`);
  }
}
if (problems.length) {
  console.error(`Dependency rules broken (see DESIGN.md, "Layout"):\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(`Dependency rules hold for ${files.length} files in src/ and ${evalFiles.length} in eval/.`);
