// `npm test`: make sure Chromium is there, then run every vitest project once.
import { spawnSync } from 'node:child_process';
import { ensureChromium } from './chromium.mjs';

// Types first: type-level tests (expectTypeOf, @ts-expect-error) only hold if something checks them.
const types = spawnSync('npx', ['tsc', '--noEmit', '-p', 'tsconfig.json'], { stdio: 'inherit' });
if (types.status !== 0) {
  console.error('Type check failed (npx tsc --noEmit -p tsconfig.json); fix the types above before the tests run.');
  process.exit(types.status ?? 1);
}

const chromium = ensureChromium();
const args = ['vitest', 'run', ...process.argv.slice(2)];
const result = spawnSync('npx', args, {
  stdio: 'inherit',
  env: { ...process.env, CHROMIUM_PATH: chromium },
});
process.exit(result.status ?? 1);
