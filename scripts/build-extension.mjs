// `npm run build:extension`: the example extension in dist-extension/, ready for
// chrome://extensions → "Load unpacked" (or --load-extension): the extension
// entry, the worker beside it, the content-script build, and demo/extension/*.
import { build } from 'vite';
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { extensionBuilds, workerBuilds } from './library-builds.mjs';

export async function buildExtension(
  outDir = resolve(import.meta.dirname, '..', 'dist-extension'),
  { quiet = false } = {},
) {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  for (const config of [...extensionBuilds(outDir), ...workerBuilds(outDir).slice(0, 1)]) {
    await build({ ...config, logLevel: quiet ? 'silent' : 'warn', build: { ...config.build, sourcemap: false } });
  }
  cpSync(resolve(import.meta.dirname, '..', 'demo', 'extension'), outDir, { recursive: true });
  return outDir;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = await buildExtension();
  console.log(`Built the example extension in ${dir}. Load it unpacked in Chromium.`);
}
