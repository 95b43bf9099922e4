// Package figures for the benchmark table, on the tarball `npm pack` makes:
// its size; what each entry weighs (gzip) beside a peer bundled the same way
// (the AI SDK's generateText, web-llm alone, the same entry with its
// dependencies inlined); and the boot figures of boot-bench.mjs.
import { build } from 'vite';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join, resolve } from 'node:path';
import { packPackage } from './build.mjs';
import { bootRows } from './boot-bench.mjs';
import { staticClosure, webllmMarkersIn, wllamaMarkersIn, WORKER_FILE } from './library-builds.mjs';

const root = resolve(import.meta.dirname, '..');

async function buildEntry(dir, name, source, external = []) {
  const entry = join(dir, `${name}.js`);
  writeFileSync(entry, source);
  await build({
    configFile: false,
    root,
    logLevel: 'silent',
    publicDir: false,
    build: {
      outDir: join(dir, 'out'),
      emptyOutDir: false,
      minify: true,
      lib: { entry, formats: ['es'], fileName: () => `${name}.out.js` },
      rolldownOptions: { external: (id) => external.some((dep) => id === dep || id.startsWith(`${dep}/`)) },
    },
  });
  return gzipSync(readFileSync(join(dir, 'out', `${name}.out.js`))).length;
}

/** A file of dist/ minified as an app's bundler would, with what it imports left out. */
async function minifiedGzip(dir, file) {
  return buildEntry(dir, 'minified', `export * from ${JSON.stringify(file)};\n`, [
    'inpage-agent',
    'ai',
    '@ai-sdk/provider',
  ]);
}

export async function bundleRows() {
  // Inside the project, so that the peers' entries resolve their packages from node_modules.
  const cache = join(root, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(join(cache, 'inpage-bundles-'));
  try {
    const { dir: pkg, report } = await packPackage(dir);
    const dist = join(pkg, 'dist');
    const gz = (...files) => files.reduce((sum, file) => sum + gzipSync(readFileSync(join(dist, file))).length, 0);
    const aiSdk = await buildEntry(
      dir,
      'ai-sdk',
      "export { generateText, tool } from 'ai';\nexport { z } from 'zod';\n",
    );
    const webllm = await buildEntry(dir, 'webllm', "export { MLCEngine } from '@mlc-ai/web-llm';\n");
    // The AI SDK provider for web-llm, its own code only (the AI SDK, web-llm and zod are the app's), as ai-sdk.js is.
    const browserAi = await buildEntry(dir, 'browser-ai', "export { webLLM } from '@browser-ai/web-llm';\n", [
      'ai',
      '@ai-sdk/provider',
      '@ai-sdk/provider-utils',
      '@mlc-ai/web-llm',
      'zod',
    ]);
    const wllama = await buildEntry(dir, 'wllama', "export { Wllama } from '@wllama/wllama/esm/index.js';\n");
    const workerFiles = [...staticClosure(dist, WORKER_FILE)];
    const wllamaChunk = report.files
      .map((file) => file.path.replace(/^dist\//, ''))
      .find(
        (path) =>
          path.startsWith('chunks/') &&
          path.endsWith('.js') &&
          wllamaMarkersIn(readFileSync(join(dist, path), 'utf8')).length,
      );
    const webllmChunk = report.files
      .map((file) => file.path.replace(/^dist\//, ''))
      .find((path) => path.startsWith('chunks/') && webllmMarkersIn(readFileSync(join(dist, path), 'utf8')).length);
    return [
      {
        group: 'bundle',
        name: 'tarball (npm pack)',
        median: report.size,
        unit: 'bytes',
        target: "≤ 3 MB besides llama.cpp's wasm",
        note: `${report.files.length} files, ${(report.unpackedSize / 2 ** 20).toFixed(1)} MiB unpacked`,
      },
      {
        group: 'bundle',
        name: 'ESM entry for bundlers, deps external (gzip)',
        median: gz('index.js'),
        unit: 'bytes',
        peer: { name: 'the same, zod+comlink+idb inlined (inpage-agent.js)', median: gz('inpage-agent.js') },
        note: 'unminified: the app minifies',
      },
      {
        group: 'bundle',
        name: 'AI SDK entry (inpage-agent/ai-sdk), the runtime and the AI SDK external (gzip, minified)',
        median: await minifiedGzip(dir, join(dist, 'ai-sdk.js')),
        unit: 'bytes',
        peer: { name: '@browser-ai/web-llm, its own code', median: browserAi },
        note: 'nothing of the AI SDK is in any other entry (build.mjs checks)',
      },
      {
        group: 'bundle',
        name: 'page build, ESM self-contained (gzip)',
        median: gz('inpage-agent.js'),
        unit: 'bytes',
        peer: { name: 'AI SDK generateText+tool+zod', median: aiSdk },
      },
      {
        group: 'bundle',
        name: 'page build, IIFE (gzip)',
        median: gz('inpage-agent.iife.js'),
        unit: 'bytes',
        peer: { name: 'AI SDK generateText+tool+zod', median: aiSdk },
      },
      {
        group: 'bundle',
        name: 'worker entry, as a scripted agent loads it (gzip)',
        median: gz(...workerFiles),
        unit: 'bytes',
        peer: { name: 'web-llm MLCEngine alone', median: webllm },
        target: 'no web-llm, no wllama',
        note: workerFiles.join(' + '),
      },
      {
        group: 'bundle',
        name: 'web-llm chunk, loaded when a model starts (gzip)',
        median: gz(webllmChunk),
        unit: 'bytes',
        peer: { name: 'web-llm MLCEngine alone', median: webllm },
        note: webllmChunk,
      },
      {
        group: 'bundle',
        name: 'wllama chunk + llama.cpp wasm, loaded when a GGUF model starts (gzip)',
        median: gz(wllamaChunk, 'chunks/wllama.wasm'),
        unit: 'bytes',
        peer: { name: 'wllama alone + its wasm', median: wllama + gz('chunks/wllama.wasm') },
        note: `${wllamaChunk} + chunks/wllama.wasm`,
      },
      ...(await bootRows(dist)),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
