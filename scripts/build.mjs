// `npm run build`: dist/inpage-agent.js, dist/inpage-agent.iife.js,
// dist/inpage-agent.worker.js and type declarations in dist/types.
import { build } from 'vite';
import { readFileSync, rmSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { resolve } from 'node:path';
import { extensionBuilds, pageBuilds, workerBuilds, webllmMarkersIn } from './library-builds.mjs';

const root = resolve(import.meta.dirname, '..');
rmSync(resolve(root, 'dist'), { recursive: true, force: true });
for (const config of [...pageBuilds(), ...workerBuilds(), ...extensionBuilds()]) await build(config);

for (const file of [
  'inpage-agent.js',
  'inpage-agent.iife.js',
  'inpage-agent-extension.js',
  'inpage-agent-content.js',
]) {
  const found = webllmMarkersIn(readFileSync(resolve(root, 'dist', file), 'utf8'));
  if (found.length) {
    console.error(
      `dist/${file} contains web-llm (${found.join(', ')}): the page bundle must never import it. Find the import that pulls src/model/webllm* into the page side.`,
    );
    process.exit(1);
  }
}
execSync('npx tsc -p tsconfig.build.json', { cwd: root, stdio: 'inherit' });
// The static demo, for any static host: dist-demo/ (vite.config.ts).
await build({ root, logLevel: 'warn' });
console.log(
  'Built dist/ (inpage-agent.js, .iife.js, .worker.js, .shared-worker.js, -extension.js, -content.js, types/) and the static demo in dist-demo/.',
);
