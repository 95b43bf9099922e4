// Finds the system Chromium that every browser test and benchmark drives.
// Test tools cannot download a browser on these machines, so we use Debian's
// package and install it when we are root and it is missing.
import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';

const candidates = [
  process.env.CHROMIUM_PATH,
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
];

export function findChromium() {
  return candidates.find((path) => path && existsSync(path));
}

export function ensureChromium() {
  const found = findChromium();
  if (found) return found;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) {
    console.error(
      'Chromium is needed for the browser tests and was not found.\n' +
        'Install it with:  sudo apt-get update && sudo apt-get install -y chromium\n' +
        'or point CHROMIUM_PATH at a Chromium or Chrome binary.',
    );
    process.exit(1);
  }
  console.log('Chromium not found: installing Debian\'s "chromium" package with apt-get…');
  execSync('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium', {
    stdio: 'inherit',
  });
  const installed = findChromium();
  if (!installed) {
    console.error('apt-get finished but no Chromium binary was found at /usr/bin/chromium.');
    process.exit(1);
  }
  return installed;
}

// Flags that keep Chromium quiet on a closed network (see ENVIRONMENT.md).
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
