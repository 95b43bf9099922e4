// The three files a page can use without a bundler of its own, as vite
// library builds: the ESM page entry, the script-tag (IIFE) build and the
// worker. Only the worker contains web-llm; the page builds swap the dev
// worker locator for one that finds inpage-agent.worker.js beside them.
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const workerLocator = (variant) => ({
  find: /^\.\/worker-url$/,
  replacement: resolve(root, `src/page/worker-url.${variant}.ts`),
});

function libraryBuild({ entry, fileName, format, name, alias = [], outDir = 'dist' }) {
  return {
    configFile: false,
    root,
    logLevel: 'warn',
    resolve: { alias },
    build: {
      outDir: resolve(root, outDir),
      emptyOutDir: false,
      sourcemap: true,
      minify: true,
      target: 'es2022',
      lib: { entry: resolve(root, entry), formats: [format], name, fileName: () => fileName },
      rolldownOptions: { output: { codeSplitting: false } },
    },
  };
}

export function pageBuilds(outDir = 'dist') {
  return [
    libraryBuild({
      entry: 'src/index.ts',
      fileName: 'inpage-agent.js',
      format: 'es',
      alias: [workerLocator('esm')],
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

/** The extension entry (an extension page imports it) and the content-script build (a classic script). */
export function extensionBuilds(outDir = 'dist') {
  return [
    libraryBuild({
      entry: 'src/extension/index.ts',
      fileName: 'inpage-agent-extension.js',
      format: 'es',
      alias: [workerLocator('esm')],
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

export function workerBuilds(outDir = 'dist') {
  return [
    libraryBuild({ entry: 'src/worker/worker-entry.ts', fileName: 'inpage-agent.worker.js', format: 'es', outDir }),
    libraryBuild({
      entry: 'src/worker/shared-worker-entry.ts',
      fileName: 'inpage-agent.shared-worker.js',
      format: 'es',
      outDir,
    }),
  ];
}

/** Strings that only web-llm's code contains; a page build holding any of them is a defect. */
export const WEBLLM_MARKERS = ['MLCEngine', 'web-llm', 'tvmjs', 'CreateMLCEngine'];

export function webllmMarkersIn(code) {
  return WEBLLM_MARKERS.filter((marker) => code.includes(marker));
}
