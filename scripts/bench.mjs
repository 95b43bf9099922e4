// `npm run bench`: every benchmark suite in headless Chromium (served by vite),
// plus bundle sizes measured here, printed as one table of medians and ratios.
// Usage: npm run bench [-- --only=session] [--model=0.5b|1.5b|gemma (the real-model suites')] [--requests=1,4 (the conversation's)]
import { createServer } from 'vite';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { ensureChromium, chromiumArgs } from './chromium.mjs';
import { bundleRows } from './bundle-sizes.mjs';
import { describeMissingSharedData, missingSharedData, sharedDataDir } from './shared-data.mjs';

const option = (name) => process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
const only = option('only');
// Every --name=value goes to the suites as ?name=value (--model, the conversation's --requests).
const query = new URLSearchParams(
  process.argv.flatMap((arg) => {
    const [, name, value] = /^--([\w-]+)=(.*)$/.exec(arg) ?? [];
    return name ? [[name, value]] : [];
  }),
);
const executablePath = ensureChromium();
if (missingSharedData().length) console.warn(`Rows that need public data are left out: ${describeMissingSharedData()}`);
// Cross-origin isolation gives performance.now() microsecond resolution instead of 100 µs.
const isolation = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };
// Suites read the public data outside the repository (../shared/data) as '@shared-data/…'.
const server = await createServer({
  logLevel: 'error',
  resolve: { alias: { '@shared-data': sharedDataDir } },
  // No reloads: the real-model suites take many minutes, and an edit to the repository meanwhile must not restart them.
  server: {
    host: '127.0.0.1',
    port: 0,
    headers: isolation,
    fs: { allow: [process.cwd(), sharedDataDir] },
    hmr: false,
    watch: null,
  },
});
await server.listen();
const url = server.resolvedUrls.local[0];
// A profile of its own on disk: an incognito-like context keeps at most 256 MiB in one Cache Storage entry, so
// a real model (the 0.5B is 491 MB) would never be cached and every load would be a download.
const profile = mkdtempSync(join(tmpdir(), 'inpage-bench-profile-'));
process.once('exit', () => rmSync(profile, { recursive: true, force: true }));
const browser = await chromium.launchPersistentContext(profile, {
  executablePath,
  args: [...chromiumArgs, '--enable-unsafe-webgpu'],
});
let results;
try {
  const page = await browser.newPage();
  page.on('pageerror', (error) => console.error('page error:', error.message));
  // Long suites say where they are ('bench: …'), so a slow run shows its progress.
  page.on('console', (message) => message.text().startsWith('bench: ') && console.log(message.text()));
  await page.goto(`${url}bench/index.html${query.size ? `?${query}` : ''}`);
  // The real-model suite (bench/wllama.bench.ts) alone takes a quarter of an hour on 2 cores.
  await page.waitForFunction(() => window.__bench, null, { timeout: 45 * 60_000, polling: 500 });
  results = await page.evaluate(() => window.__bench);
} finally {
  await browser.close();
  await server.close();
}
if (!only || only === 'bundle') results.rows.push(...(await bundleRows()));
printTable(results.rows);
for (const failure of results.failures) console.error(`suite failed: ${failure}`);
process.exit(results.failures.length ? 1 : 0);

function printTable(rows) {
  const fmt = (value, unit) =>
    value === undefined
      ? ''
      : unit === 'bytes'
        ? `${(value / 1024).toFixed(1)} KiB`
        : `${value < 10 ? value.toFixed(3) : value.toFixed(1)} ${unit}`;
  const table = rows.map((row) => ({
    group: row.group,
    benchmark: row.name,
    median: fmt(row.median, row.unit),
    p95: fmt(row.p95, row.unit),
    peer: row.peer ? `${row.peer.name}: ${fmt(row.peer.median, row.unit)}` : '',
    ratio: row.peer && row.peer.median ? (row.median / row.peer.median).toFixed(2) : '',
    target: row.target ?? '',
    note: row.note ?? '',
  }));
  const headers = Object.keys(table[0] ?? { group: '' });
  const widths = headers.map((h) => Math.max(h.length, ...table.map((r) => String(r[h]).length)));
  const line = (cells) => `| ${cells.map((c, i) => String(c).padEnd(widths[i])).join(' | ')} |`;
  console.log(line(headers));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const row of table) console.log(line(headers.map((h) => row[h])));
}
