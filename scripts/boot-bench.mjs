// Boot figures for `npm run bench`, measured on built files in Chromium: the
// time from createAgent until a scripted agent is ready, beside a bare comlink
// worker's start and one round trip (the floor any worker-based agent pays),
// and beside the same agent whose worker has web-llm inside (one file, as the
// package shipped it before the worker was split); plus the bytes that
// scripted agent's page fetched. Every sample is a page in a fresh browser
// context, so nothing is cached: a first visit.
import { build } from 'vite';
import { chromium } from 'playwright-core';
import { createServer } from 'node:http';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { extname, join, normalize, resolve } from 'node:path';
import { ensureChromium, chromiumArgs } from './chromium.mjs';
import { webllmMarkersIn, workerBuilds, WORKER_FILE } from './library-builds.mjs';

const root = resolve(import.meta.dirname, '..');
const SAMPLES = 12;

function summarize(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { median: at(0.5), p95: at(0.95) };
}

/** The peer (bench/boot/bare-*.ts) and the one-file worker, built into `dir`. */
async function buildComparisons(dir) {
  for (const [name, entry] of [
    ['bare-page.js', 'bench/boot/bare-page.ts'],
    ['bare-worker.js', 'bench/boot/bare-worker.ts'],
  ]) {
    await build({
      configFile: false,
      root,
      logLevel: 'silent',
      publicDir: false,
      build: {
        outDir: join(dir, 'peer'),
        emptyOutDir: false,
        minify: true,
        lib: { entry: resolve(root, entry), formats: ['es'], fileName: () => name },
      },
    });
  }
  // The dedicated worker with web-llm inlined: the build before the split.
  const [split] = workerBuilds(join(dir, 'one-file'));
  await build({
    ...split,
    logLevel: 'silent',
    build: {
      ...split.build,
      lib: { ...split.build.lib, entry: resolve(root, 'src/worker/worker-entry.ts'), fileName: () => WORKER_FILE },
      rolldownOptions: { output: { codeSplitting: false } },
    },
  });
}

/** Serves each URL prefix from its folder; the longest prefix wins. */
async function serve(routes) {
  const types = { '.js': 'text/javascript', '.html': 'text/html' };
  const server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url, 'http://x').pathname);
    const prefix = Object.keys(routes)
      .filter((route) => path.startsWith(route))
      .sort((a, b) => b.length - a.length)[0];
    const rest = prefix === undefined ? '' : path.slice(prefix.length) || 'index.html';
    const file = prefix === undefined ? undefined : normalize(join(routes[prefix], rest));
    if (!file || !file.startsWith(normalize(routes[prefix])) || !existsSync(file) || statSync(file).isDirectory()) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'Content-Type': types[extname(file)] ?? 'application/octet-stream' });
    response.end(readFileSync(file));
  });
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((done) => server.close(done)) };
}

/** One page load in a fresh context: its timing and what it fetched. */
async function sample(browser, url) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const bodies = [];
  page.on('response', (response) => bodies.push(response.body().catch(() => Buffer.alloc(0))));
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  try {
    await page.goto(url);
    await page.waitForFunction(() => window.__boot, null, { timeout: 60_000 });
    if (errors.length) throw new Error(errors.join('; '));
    const { ms } = await page.evaluate(() => window.__boot);
    const fetched = await Promise.all(bodies);
    return {
      ms,
      bytes: fetched.reduce((sum, body) => sum + body.length, 0),
      webllmBytes: fetched
        .filter((body) => webllmMarkersIn(body.toString('latin1')).length)
        .reduce((sum, body) => sum + body.length, 0),
    };
  } finally {
    await context.close();
  }
}

/** Bench rows for the built package in `dist` (a folder with inpage-agent.js and its workers). */
export async function bootRows(dist) {
  const dir = mkdtempSync(join(root, 'node_modules', '.cache', 'inpage-boot-'));
  const browser = await chromium.launch({ executablePath: ensureChromium(), args: chromiumArgs });
  let server;
  try {
    await buildComparisons(dir);
    // The one-file case has the same page bundle; only its worker differs.
    copyFileSync(join(dist, 'inpage-agent.js'), join(dir, 'one-file', 'inpage-agent.js'));
    server = await serve({
      '/lib/': dist,
      '/one-file/lib/': join(dir, 'one-file'),
      '/one-file/': resolve(root, 'bench/boot'),
      '/peer/': join(dir, 'peer'),
      '/': resolve(root, 'bench/boot'),
    });
    const cases = {
      memory: '/index.html?case=agent&storage=memory',
      indexeddb: '/index.html?case=agent',
      oneFile: '/one-file/index.html?case=agent&storage=memory',
      bare: '/index.html?case=bare',
    };
    const runs = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));
    // Interleaved, so that the machine's load falls on every case alike.
    for (let i = 0; i < SAMPLES; i++) {
      for (const [name, path] of Object.entries(cases)) runs[name].push(await sample(browser, `${server.url}${path}`));
    }
    const ms = (name) => summarize(runs[name].map((run) => run.ms));
    const bare = { name: 'bare comlink worker: start + 1 round trip', median: ms('bare').median };
    const bytes = (name) => summarize(runs[name].map((run) => run.bytes)).median;
    const webllm = Math.max(
      ...runs.memory.map((run) => run.webllmBytes),
      ...runs.indexeddb.map((run) => run.webllmBytes),
    );
    return [
      {
        group: 'boot',
        name: 'createAgent → ready, scripted, memory storage',
        ...ms('memory'),
        unit: 'ms',
        peer: bare,
        target: '≤ 2× peer',
        note: 'first visit: nothing cached',
      },
      {
        group: 'boot',
        name: 'createAgent → ready, scripted, IndexedDB',
        ...ms('indexeddb'),
        unit: 'ms',
        peer: bare,
        note: 'first visit: creates the database',
      },
      {
        group: 'boot',
        name: 'same as memory, worker with web-llm inside (one file)',
        ...ms('oneFile'),
        unit: 'ms',
        peer: bare,
        note: 'the worker before the split, built in this run',
      },
      {
        group: 'boot',
        name: 'bytes a scripted agent fetches (page, bundle, worker)',
        median: bytes('memory'),
        unit: 'bytes',
        peer: { name: 'same with the one-file worker', median: bytes('oneFile') },
        target: 'no web-llm byte',
        note: `web-llm bytes fetched: ${webllm}`,
      },
    ];
  } finally {
    await server?.close();
    await browser.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
