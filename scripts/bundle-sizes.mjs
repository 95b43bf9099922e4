// Bundle sizes for the benchmark table: our page build beside the AI SDK's
// generateText bundled the same way, and our worker beside web-llm alone.
import { build } from 'vite';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join, resolve } from 'node:path';
import { pageBuilds, workerBuilds } from './library-builds.mjs';

const root = resolve(import.meta.dirname, '..');

async function buildEntry(dir, name, source) {
  const entry = join(dir, `${name}.js`);
  writeFileSync(entry, source);
  await build({
    configFile: false,
    root,
    logLevel: 'silent',
    build: {
      outDir: join(dir, 'out'),
      emptyOutDir: false,
      minify: true,
      lib: { entry, formats: ['es'], fileName: () => `${name}.out.js` },
    },
  });
  return gzipSync(readFileSync(join(dir, 'out', `${name}.out.js`))).length;
}

export async function bundleRows() {
  // Inside the project, so that the peers' entries resolve their packages from node_modules.
  const cache = join(root, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(join(cache, 'inpage-bundles-'));
  try {
    for (const config of [...pageBuilds(join(dir, 'dist')), ...workerBuilds(join(dir, 'dist'))]) {
      await build({ ...config, logLevel: 'silent', build: { ...config.build, sourcemap: false } });
    }
    const gz = (file) => gzipSync(readFileSync(join(dir, 'dist', file))).length;
    const aiSdk = await buildEntry(
      dir,
      'ai-sdk',
      "export { generateText, tool } from 'ai';\nexport { z } from 'zod';\n",
    );
    const webllm = await buildEntry(dir, 'webllm', "export { MLCEngine } from '@mlc-ai/web-llm';\n");
    return [
      {
        group: 'bundle',
        name: 'page build, ESM (gzip)',
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
        name: 'worker build (gzip)',
        median: gz('inpage-agent.worker.js'),
        unit: 'bytes',
        peer: { name: 'web-llm MLCEngine alone', median: webllm },
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
