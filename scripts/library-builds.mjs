// What dist/ holds, as vite library builds (configs, so that tests and
// benchmarks can build the same files elsewhere):
// - index.js, extension.js: for an app's bundler. Unminified ES modules that
//   import zod, comlink and idb (the app's bundler dedupes them) and start the
//   worker with the literal `new Worker(new URL('./inpage-agent.worker.js',
//   import.meta.url))` that Vite, webpack and Parcel follow.
// - chat.js (inpage-agent/chat): defines <inpage-agent-chat>. Like ai-sdk.js it
//   imports the runtime as the package 'inpage-agent', so an app holds one copy.
// - ai-sdk.js (inpage-agent/ai-sdk): the AI SDK's provider and chat transport.
//   It imports the runtime as the package 'inpage-agent' (so an app holds one
//   copy, and its AgentError is the app's) and imports 'ai'; nothing of the AI
//   SDK is in any other file.
// - inpage-agent.js (ESM for a CDN or a plain <script type="module">),
//   inpage-agent.iife.js (script tag), inpage-agent-extension.js and
//   inpage-agent-content.js (an extension's copy-in files): self-contained.
// - inpage-agent-isolation.js (inpage-agent/isolation): a classic script that,
//   copied to a site's root, isolates its pages on a static host without
//   headers (it registers itself as the service worker that adds them).
// - inpage-agent.worker.js, inpage-agent.shared-worker.js: the workers. Their
//   shared code is in chunks/; web-llm is in the chunk the engine's `import()`
//   loads only when a web-llm model starts.
// - chunks/wllama.wasm: llama.cpp's WebAssembly, which the wllama chunk asks
//   for with `new URL('./wllama.wasm', import.meta.url)` (an app's bundler
//   follows that pattern as it does for the workers).
// Only the workers' web-llm chunk contains web-llm, only their wllama chunk wllama.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { minifySync } from 'rolldown/utils';

const root = resolve(import.meta.dirname, '..');
/** What the library entries import instead of inlining (package.json "dependencies"). */
const DEPENDENCIES = ['zod', 'comlink', 'idb'];
export const WORKER_FILE = 'inpage-agent.worker.js';
export const SHARED_WORKER_FILE = 'inpage-agent.shared-worker.js';
export const ISOLATION_FILE = 'inpage-agent-isolation.js';

const workerLocator = (variant) => ({
  find: /^\.\/worker-url$/,
  replacement: resolve(root, `src/page/worker-url.${variant}.ts`),
});

/**
 * Vite would bundle a `new Worker(new URL('./x.js', import.meta.url))` it sees
 * in our own sources, and fail: the worker files are built separately and sit
 * beside the output. So while we build, each worker path is a placeholder name
 * that vite's worker and asset plugins do not look at, and the path goes back
 * in as the chunk is written: the output carries the pattern verbatim for the
 * app's bundler (build.mjs checks that it does).
 */
const WORKER_PATHS = {
  __inpageAgentWorkerPath__: './inpage-agent.worker.js',
  __inpageAgentSharedWorkerPath__: './inpage-agent.shared-worker.js',
};

function keepWorkerUrls() {
  return {
    name: 'inpage-agent:keep-worker-urls',
    enforce: 'pre',
    transform(code, id) {
      if (!/src\/page\/worker-url\.(esm|bundle)\.ts$/.test(id)) return null;
      for (const [placeholder, path] of Object.entries(WORKER_PATHS)) code = code.replace(`'${path}'`, placeholder);
      return { code, map: null };
    },
    renderChunk(code) {
      for (const [placeholder, path] of Object.entries(WORKER_PATHS)) code = code.replaceAll(placeholder, `"${path}"`);
      return { code, map: null };
    },
  };
}

/** The npm packages whose code the builds inlined (for dist/THIRD-PARTY-LICENSES.txt). */
export const bundledPackages = new Set();

/**
 * Vite keeps the whitespace of minified ES modules in lib mode, for the pure annotations an app's bundler
 * reads. The self-contained bundles and the workers are not tree-shaken by an app's bundler, so their
 * whitespace and comments go; what a bundler does read of them goes back in: the worker URLs as it
 * recognizes them, and the ignore comments of an import() whose address is a value (a page's engine module).
 */
function withoutWhitespace() {
  return {
    name: 'inpage-agent:without-whitespace',
    // After Vite's own minifier, which prints whitespace back in.
    generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        const { code, errors } = minifySync(chunk.fileName, chunk.code, {
          compress: false,
          mangle: false,
          codegen: { removeWhitespace: true },
        });
        if (errors.length) continue;
        chunk.code = code
          .replace(/new URL\(`(\.\/[\w.-]+)`,import\.meta\.url\)/g, 'new URL("$1", import.meta.url)')
          .replace(/\bimport\(`(\.\/[\w.-]+)`\)/g, 'import("$1")')
          // import(x) of a value, not a method named import: `import(e,t){`.
          .replace(/(?<![\w$.])import\(([\w$.]+)\)(?!\{)/g, 'import(/* @vite-ignore */ /* webpackIgnore: true */ $1)');
      }
    },
  };
}

function recordBundledPackages() {
  return {
    name: 'inpage-agent:record-bundled-packages',
    moduleParsed({ id }) {
      const match = /[\\/]node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)[\\/]/.exec(id);
      if (match) bundledPackages.add(match[1].replace('\\', '/'));
    },
  };
}

/**
 * src/ai-sdk and src/chat reach the runtime only through src/index.ts
 * (check-deps.mjs); in ai-sdk.js and chat.js that import is the package
 * itself, resolved by the app.
 */
function runtimeAsPackage(folder) {
  const runtime = resolve(root, 'src/index.ts');
  return {
    name: 'inpage-agent:runtime-as-package',
    enforce: 'pre',
    async resolveId(source, importer) {
      if (!importer?.includes(`/src/${folder}/`) || !source.startsWith('.')) return null;
      const resolved = await this.resolve(source, importer, { skipSelf: true });
      return resolved?.id === runtime ? { id: 'inpage-agent', external: true } : null;
    },
  };
}

function libraryBuild({
  entry,
  fileName,
  format,
  name,
  alias = [],
  outDir,
  minify = true,
  external = [],
  plugins = [],
}) {
  return {
    configFile: false,
    root,
    logLevel: 'warn',
    // public/ holds the demo's files (its service worker); none belongs in dist/.
    publicDir: false,
    resolve: { alias },
    plugins: [...plugins, keepWorkerUrls(), recordBundledPackages(), ...(minify ? [withoutWhitespace()] : [])],
    build: {
      outDir: resolve(root, outDir),
      emptyOutDir: false,
      sourcemap: false,
      minify,
      target: 'es2022',
      lib: { entry: resolve(root, entry), formats: [format], name, fileName: () => fileName },
      rolldownOptions: {
        external: (id) => external.some((dep) => id === dep || id.startsWith(`${dep}/`)),
        // JSDoc is the types' to carry (dist/types/*.d.ts, what an editor reads): the readable entries keep their
        // code as written, but not a second copy of every doc comment. Legal comments stay, and so do the
        // annotations (@__PURE__) an app's bundler shakes trees by.
        output: { codeSplitting: false, comments: { legal: true, annotation: true, jsdoc: false } },
      },
    },
  };
}

/** The bundler-facing entries: readable ES modules that import their dependencies. */
export function libraryEntryBuilds(outDir = 'dist') {
  const common = { format: 'es', alias: [workerLocator('esm')], outDir, minify: false, external: DEPENDENCIES };
  return [
    libraryBuild({ ...common, entry: 'src/index.ts', fileName: 'index.js' }),
    libraryBuild({ ...common, entry: 'src/extension/index.ts', fileName: 'extension.js' }),
    libraryBuild({
      ...common,
      entry: 'src/ai-sdk/index.ts',
      fileName: 'ai-sdk.js',
      external: [...DEPENDENCIES, ...AI_SDK_PACKAGES],
      plugins: [runtimeAsPackage('ai-sdk')],
    }),
    libraryBuild({ ...common, entry: 'src/chat/index.ts', fileName: 'chat.js', plugins: [runtimeAsPackage('chat')] }),
  ];
}

/** The AI SDK's packages, imported by ai-sdk.js only (optional peer dependencies). */
export const AI_SDK_PACKAGES = ['ai', '@ai-sdk/provider', '@ai-sdk/react'];

/** Strings of the AI SDK's code and of ours for it: a main entry holding any of them pulls the AI SDK in. */
export const AI_SDK_MARKERS = ['readUIMessageStream', 'uiMessageChunkSchema', 'specificationVersion'];

export function aiSdkMarkersIn(code) {
  return AI_SDK_MARKERS.filter((marker) => code.includes(marker));
}

/**
 * The self-contained page files: ESM for a CDN or a plain module script, the script-tag build, and the
 * script that isolates a page on a static host without headers (a page script and its own service worker).
 */
export function pageBuilds(outDir = 'dist') {
  return [
    libraryBuild({
      entry: 'src/isolation/isolation.ts',
      fileName: ISOLATION_FILE,
      format: 'iife',
      name: 'InpageAgentIsolation',
      outDir,
    }),
    libraryBuild({
      entry: 'src/index.ts',
      fileName: 'inpage-agent.js',
      format: 'es',
      alias: [workerLocator('bundle')],
      outDir,
    }),
    libraryBuild({
      entry: 'src/embed.ts',
      fileName: 'inpage-agent.iife.js',
      format: 'iife',
      name: 'InpageAgent',
      alias: [workerLocator('iife')],
      outDir,
    }),
  ];
}

/** The extension's copy-in files: the extension page's entry and the content-script build (a classic script). */
export function extensionBuilds(outDir = 'dist') {
  return [
    libraryBuild({
      entry: 'src/extension/index.ts',
      fileName: 'inpage-agent-extension.js',
      format: 'es',
      alias: [workerLocator('bundle')],
      outDir,
    }),
    libraryBuild({
      entry: 'src/extension/content-entry.ts',
      fileName: 'inpage-agent-content.js',
      format: 'iife',
      name: 'InpageAgentContent',
      outDir,
    }),
  ];
}

const WLLAMA_WASM = '@wllama/wllama/esm/wasm/wllama.wasm?url';

/**
 * llama.cpp's wasm beside the wllama chunk: the engine's `?url` import of it
 * (what Vite's dev server and an app's vite build resolve themselves) becomes
 * `new URL('./wllama.wasm', import.meta.url)`, written in only as the chunk
 * is rendered, so that vite's asset plugin does not inline 8.8 MB as base64.
 */
function wllamaWasmBeside() {
  const placeholder = '__inpageAgentWllamaWasm__';
  return {
    name: 'inpage-agent:wllama-wasm-beside',
    enforce: 'pre',
    resolveId(id) {
      return id === WLLAMA_WASM ? `\0${WLLAMA_WASM}` : null;
    },
    load(id) {
      if (id !== `\0${WLLAMA_WASM}`) return null;
      this.emitFile({
        type: 'asset',
        fileName: 'chunks/wllama.wasm',
        source: readFileSync(resolve(root, 'node_modules/@wllama/wllama/esm/wasm/wllama.wasm')),
      });
      return `export default new URL(${placeholder}, import.meta.url).href;`;
    },
    renderChunk(code) {
      return code.includes(placeholder) ? { code: code.replaceAll(placeholder, '"./wllama.wasm"'), map: null } : null;
    },
  };
}

/**
 * Both workers in one build, so that they share their chunks and there is one
 * web-llm chunk, which the engine's `import()` loads only when a web-llm model
 * starts. Chunk names carry no hash: the files are versioned by the package.
 */
export function workerBuilds(outDir = 'dist') {
  return [
    {
      configFile: false,
      root,
      logLevel: 'warn',
      publicDir: false,
      plugins: [recordBundledPackages(), wllamaWasmBeside(), withoutWhitespace()],
      build: {
        outDir: resolve(root, outDir),
        emptyOutDir: false,
        sourcemap: false,
        minify: true,
        target: 'es2022',
        lib: {
          entry: {
            [WORKER_FILE.replace(/\.js$/, '')]: resolve(root, 'src/worker/worker-entry.ts'),
            [SHARED_WORKER_FILE.replace(/\.js$/, '')]: resolve(root, 'src/worker/shared-worker-entry.ts'),
          },
          formats: ['es'],
          fileName: (_format, entryName) => `${entryName}.js`,
        },
        rolldownOptions: {
          output: {
            // The code both workers run (the loop, sessions, toolkit, scripted engine) and the lazy web-llm chunk.
            chunkFileNames: (chunk) => (chunk.isDynamicEntry ? 'chunks/[name].js' : 'chunks/worker-core.js'),
          },
        },
      },
    },
  ];
}

/** Strings that only web-llm's code contains; a page build or a worker entry holding any of them is a defect. */
export const WEBLLM_MARKERS = ['MLCEngine', 'tvmjs', 'CreateMLCEngine'];

export function webllmMarkersIn(code) {
  return WEBLLM_MARKERS.filter((marker) => code.includes(marker));
}

/** Strings that only wllama's code contains (its inner worker's source, kept as a string). */
export const WLLAMA_MARKERS = ['wllamaMalloc', 'wllamaStart'];

export function wllamaMarkersIn(code) {
  return WLLAMA_MARKERS.filter((marker) => code.includes(marker));
}

/** The pattern an app's bundler follows to find a worker beside the module that starts it. */
export function workerPatternsIn(code) {
  return [
    /new Worker\(new URL\(["']\.\/inpage-agent\.worker\.js["'], import\.meta\.url\)/,
    /new SharedWorker\(new URL\(["']\.\/inpage-agent\.shared-worker\.js["'], import\.meta\.url\)/,
  ].filter((pattern) => pattern.test(code)).length;
}

/** `file` and every file of `dist` it imports statically: what a browser fetches before the module runs. */
export function staticClosure(dist, file, seen = new Set()) {
  if (seen.has(file)) return seen;
  seen.add(file);
  const folder = file.includes('/') ? file.slice(0, file.lastIndexOf('/') + 1) : '';
  const code = readFileSync(join(dist, file), 'utf8');
  for (const [, path] of code.matchAll(/\bimport\s*(?:[\w*{}\s,$]*?\bfrom\s*)?["']\.\/([^"']+)["']/g)) {
    staticClosure(dist, `${folder}${path}`, seen);
  }
  return seen;
}
