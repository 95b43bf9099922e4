// `npm run build`: the package's files in dist/ (see library-builds.mjs), their
// type declarations in dist/types, and the static demo in dist-demo/.
// `npm run build:lib` (and `npm pack`, through prepack) builds dist/ only.
import { build } from 'vite';
import { cpSync, existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { dirname, join, resolve } from 'node:path';
import {
  extensionBuilds,
  libraryEntryBuilds,
  pageBuilds,
  workerBuilds,
  webllmMarkersIn,
  aiSdkMarkersIn,
  wllamaMarkersIn,
  workerPatternsIn,
  bundledPackages,
  staticClosure,
  WORKER_FILE,
  SHARED_WORKER_FILE,
} from './library-builds.mjs';

/** A declaration file's import of another of ours: its lead (`from`, `import(`), quote and relative path. */
const RELATIVE_IMPORT = /(\bfrom\s*|\bimport\s*\(\s*)(['"])(\.\.?(?:\/[^'"]*)?)\2/g;

const root = resolve(import.meta.dirname, '..');

/** Builds the package's files into `outDir` (dist/ by default) and checks what they promise. */
export async function buildPackage(outDir = resolve(root, 'dist'), { quiet = false } = {}) {
  rmSync(outDir, { recursive: true, force: true });
  for (const config of [
    ...workerBuilds(outDir),
    ...libraryEntryBuilds(outDir),
    ...pageBuilds(outDir),
    ...extensionBuilds(outDir),
  ]) {
    await build(quiet ? { ...config, logLevel: 'silent' } : config);
  }
  checkOutput(outDir);
  writeThirdPartyLicenses(outDir);
  execFileSync(
    resolve(root, 'node_modules/.bin/tsc'),
    ['-p', 'tsconfig.build.json', '--outDir', resolve(outDir, 'types')],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  addDeclarationExtensions(resolve(outDir, 'types'));
  // The workers export nothing; their declaration says so, for `exports` to have types on every entry.
  writeFileSync(
    resolve(outDir, 'types/worker.d.ts'),
    '/** A worker script (inpage-agent/worker, inpage-agent/shared-worker): start it with new Worker(url), never import it. */\nexport {};\n',
  );
  writeFileSync(
    resolve(outDir, 'types/isolation.d.ts'),
    '/** A classic script (inpage-agent/isolation): copy it to your site and load it with <script src>, never import it. */\nexport {};\n',
  );
  keepReachableDeclarations(resolve(outDir, 'types'));
  return outDir;
}

/**
 * The tarball `npm pack` makes of this repository, made in `tmp` without
 * touching dist/: a package folder with package.json, README.md, LICENSE,
 * docs/ and a fresh build, packed with npm's own rules (the "files" field).
 */
export async function packPackage(tmp) {
  const dir = resolve(tmp, 'package');
  await buildPackage(resolve(dir, 'dist'), { quiet: true });
  for (const file of ['package.json', 'README.md', 'LICENSE', 'docs']) {
    cpSync(resolve(root, file), resolve(dir, file), { recursive: true });
  }
  const { stdout } = await promisify(execFile)(
    'npm',
    ['pack', '--json', '--ignore-scripts', '--pack-destination', tmp],
    { cwd: dir, maxBuffer: 16 * 1024 * 1024 },
  );
  const report = JSON.parse(stdout)[0];
  return { dir, tarball: resolve(tmp, report.filename), report };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    await buildPackage();
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
  if (process.argv.includes('--lib')) {
    console.log('Built dist/: the library entries, the self-contained bundles, the workers and their chunks, types/.');
  } else {
    // The static demo, for any static host: dist-demo/ (vite.config.ts).
    await build({ root, logLevel: 'warn' });
    console.log('Built dist/ (the package) and the static demo in dist-demo/.');
  }
}

/**
 * tsc writes the declarations' relative imports as the sources have them,
 * without an extension; TypeScript's node16/nodenext resolution (Node's ESM
 * rules) needs the file the import means: './x.js' or './x/index.js'.
 */
function addDeclarationExtensions(typesDir) {
  for (const file of readdirSync(typesDir, { recursive: true, withFileTypes: true })) {
    if (!file.isFile() || !file.name.endsWith('.d.ts')) continue;
    const path = join(file.parentPath, file.name);
    const code = readFileSync(path, 'utf8');
    const fixed = code.replace(RELATIVE_IMPORT, (_, lead, quote, spec) => {
      const target = resolve(file.parentPath, spec);
      if (existsSync(`${target}.d.ts`)) return `${lead}${quote}${spec}.js${quote}`;
      if (existsSync(join(target, 'index.d.ts'))) return `${lead}${quote}${spec.replace(/\/$/, '')}/index.js${quote}`;
      fail(`${path} imports ${spec}, which has no declaration file.`);
    });
    if (fixed !== code) writeFileSync(path, fixed);
  }
}

/**
 * tsc writes a declaration for every source file; an app's TypeScript reads only those the package's
 * entries (package.json's exports) reach through their imports. The others go (a third of them: the
 * grammar builder's, the readers', …), so the tarball carries no type nobody can name.
 */
function keepReachableDeclarations(typesDir) {
  const { exports } = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8'));
  const entries = Object.values(exports).flatMap((target) =>
    typeof target === 'object' && target.types ? [target.types] : [],
  );
  const reached = new Set();
  const visit = (path) => {
    if (reached.has(path) || !existsSync(path)) return;
    reached.add(path);
    const code = readFileSync(path, 'utf8');
    for (const [, , , spec] of code.matchAll(RELATIVE_IMPORT))
      visit(resolve(dirname(path), spec.replace(/\.js$/, '.d.ts')));
  };
  for (const entry of entries) visit(join(typesDir, entry.replace(/^\.\/dist\/types\//, '')));
  for (const file of readdirSync(typesDir, { recursive: true, withFileTypes: true })) {
    const path = join(file.parentPath, file.name);
    if (file.isFile() && !reached.has(path)) rmSync(path);
  }
}

/** The license of every package whose code is inside dist/ (bundledPackages, recorded while building). */
function writeThirdPartyLicenses(outDir) {
  const sections = [...bundledPackages].sort().map((name) => {
    const folder = resolve(root, 'node_modules', name);
    const { version, license } = JSON.parse(readFileSync(resolve(folder, 'package.json'), 'utf8'));
    const file = readdirSync(folder).find((entry) => /^(licen[cs]e|copying)(\.|$)/i.test(entry));
    const text = file
      ? readFileSync(resolve(folder, file), 'utf8').trim()
      : `(${license}; the package ships no license file)`;
    return `${name}@${version} (${license})\n\n${text}\n`;
  });
  writeFileSync(
    resolve(outDir, 'THIRD-PARTY-LICENSES.txt'),
    `The files in this folder contain code of these packages, each under its own license.\n\n${sections.join(`\n${'-'.repeat(72)}\n\n`)}`,
  );
}

function fail(message) {
  throw new Error(message);
}

/** What the package promises about its files, checked on the files themselves. */
function checkOutput(dist) {
  const read = (file) => readFileSync(resolve(dist, file), 'utf8');
  const pageFiles = [
    'index.js',
    'extension.js',
    'chat.js',
    'inpage-agent.js',
    'inpage-agent.iife.js',
    'inpage-agent-extension.js',
    'inpage-agent-content.js',
  ];
  for (const file of pageFiles) {
    const found = webllmMarkersIn(read(file));
    if (found.length)
      fail(
        `dist/${file} contains web-llm (${found.join(', ')}): the page bundle must never import it. Find the import that pulls src/model/engines/webllm/ into the page side.`,
      );
    const wllama = wllamaMarkersIn(read(file));
    if (wllama.length)
      fail(
        `dist/${file} contains wllama (${wllama.join(', ')}): the page bundle must never import it. Find the import that pulls src/model/engines/wllama/wllama-engine.ts into the page side.`,
      );
  }
  // A scripted agent fetches the worker and the chunks it imports statically: none may hold web-llm.
  const chunks = readdirSync(resolve(dist, 'chunks')).map((name) => `chunks/${name}`);
  const webllmChunks = chunks.filter((file) => webllmMarkersIn(read(file)).length);
  if (webllmChunks.length !== 1) fail(`Expected web-llm in exactly one chunk of dist/chunks/, found: ${webllmChunks}.`);
  const wllamaChunks = chunks.filter((file) => file.endsWith('.js') && wllamaMarkersIn(read(file)).length);
  if (wllamaChunks.length !== 1) fail(`Expected wllama in exactly one chunk of dist/chunks/, found: ${wllamaChunks}.`);
  if (!/new URL\(\s*"\.\/wllama\.wasm",\s*import\.meta\.url\)/.test(read(wllamaChunks[0])))
    fail(
      `dist/${wllamaChunks[0]} does not look for wllama.wasm beside itself (see wllamaWasmBeside in library-builds.mjs).`,
    );
  for (const entry of [WORKER_FILE, SHARED_WORKER_FILE]) {
    for (const file of staticClosure(dist, entry)) {
      if (webllmMarkersIn(read(file)).length)
        fail(
          `dist/${file} is loaded with ${entry} and holds web-llm: it must stay a lazy chunk (src/model/engines/create-engine.ts).`,
        );
      if (wllamaMarkersIn(read(file)).length)
        fail(
          `dist/${file} is loaded with ${entry} and holds wllama: it must stay a lazy chunk (src/model/engines/wllama/wllama-lazy-engine.ts).`,
        );
    }
  }
  // An import() of a URL known only at run time must be left to the browser by every bundler.
  for (const file of [WORKER_FILE, SHARED_WORKER_FILE, ...chunks, 'index.js', 'extension.js']) {
    // Not a method of that name (the sessions service's import(file, onProgress) { … }) nor a call of one (x.import()).
    for (const [call] of read(file).matchAll(/(?<![.\w$])import\(\s*(?!["'`])[^)]*\)(?!\s*\{)/g)) {
      if (!call.includes('@vite-ignore') || !call.includes('webpackIgnore: true'))
        fail(
          `dist/${file} has ${call}: a bundler would try to resolve it. Write it import(/* @vite-ignore */ /* webpackIgnore: true */ url), as src/model/engines/module/module-engine.ts does.`,
        );
    }
  }
  for (const file of ['index.js', 'extension.js']) {
    if (workerPatternsIn(read(file)) !== 2)
      fail(
        `dist/${file} lost the new Worker(new URL('./inpage-agent.worker.js', import.meta.url)) pattern that bundlers follow (see keepWorkerUrls in library-builds.mjs).`,
      );
  }
  for (const file of ['inpage-agent.js', 'inpage-agent-extension.js']) {
    if (
      !read(file).includes('"./inpage-agent.worker.js",import.meta.url') &&
      !read(file).includes('"./inpage-agent.worker.js", import.meta.url')
    )
      fail(
        `dist/${file} does not look for inpage-agent.worker.js beside itself (see keepWorkerUrls in library-builds.mjs).`,
      );
  }
  // The AI SDK is an optional peer: no file but ai-sdk.js holds or imports any of it (the workers neither).
  for (const file of [...pageFiles, WORKER_FILE, SHARED_WORKER_FILE, ...chunks]) {
    const code = read(file);
    const found = aiSdkMarkersIn(code);
    if (found.length || /from\s*["'](ai|@ai-sdk\/[^"']+)["']/.test(code))
      fail(
        `dist/${file} holds or imports the AI SDK (${found.join(', ') || 'an import'}): only inpage-agent/ai-sdk may (src/ai-sdk, imported by nothing else).`,
      );
  }
  // ai-sdk.js uses the runtime of the app's own 'inpage-agent': a copy inside would be a second AgentError class, a second worker client.
  const aiSdk = read('ai-sdk.js');
  if (!aiSdk.includes('from "inpage-agent"') || /class AgentError|new Worker\(|Comlink/.test(aiSdk))
    fail(
      'dist/ai-sdk.js must import the runtime from "inpage-agent" and hold none of it (see runtimeAsPackage in library-builds.mjs; src/ai-sdk imports only ../index at run time).',
    );
  if (!/from\s*"ai"/.test(aiSdk) || aiSdk.includes('function readUIMessageStream'))
    fail('dist/ai-sdk.js must import the AI SDK ("ai"), not inline it (AI_SDK_PACKAGES in library-builds.mjs).');
  // chat.js likewise: the element talks to the app's own runtime.
  const chat = read('chat.js');
  if (!chat.includes('from "inpage-agent"') || /class AgentError|new Worker\(|Comlink/.test(chat))
    fail(
      'dist/chat.js must import the runtime from "inpage-agent" and hold none of it (see runtimeAsPackage in library-builds.mjs; src/chat imports only ../index at run time).',
    );
  // The script-tag build defines the element too.
  if (!read('inpage-agent.iife.js').includes('inpage-agent-chat'))
    fail('dist/inpage-agent.iife.js must define <inpage-agent-chat> (src/embed.ts exports src/chat/index.ts).');
  // The library entries import their dependencies (the app's bundler dedupes them): no zod or comlink inside.
  for (const file of ['index.js', 'extension.js']) {
    const code = read(file);
    for (const [dependency, marker] of [
      ['zod', 'ZodError'],
      ['comlink', 'Comlink.thrown'],
    ]) {
      if (!code.includes(`from "${dependency}"`) || code.includes(marker))
        fail(`dist/${file} must import ${dependency}, not inline it (see DEPENDENCIES in library-builds.mjs).`);
    }
  }
}
