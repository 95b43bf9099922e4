// `npm test`: make sure Chromium is there, then run every vitest project once.
import { spawnSync } from 'node:child_process';
import { ensureChromium } from './chromium.mjs';

const chromium = ensureChromium();
const args = ['vitest', 'run', ...process.argv.slice(2)];
const result = spawnSync('npx', args, {
  stdio: 'inherit',
  env: { ...process.env, CHROMIUM_PATH: chromium },
});
process.exit(result.status ?? 1);
