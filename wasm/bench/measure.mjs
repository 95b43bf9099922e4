// Times one WebAssembly build of llama.cpp in headless Chromium: the same prompt read whole (prefill) and 64
// tokens written after it (decode), one thread, greedy; tokens per second of wall time and per second of CPU
// the browser received (summed over its processes from /proc), with the machine's load beside each run.
//
//   node wasm/bench/measure.mjs [--wllama=DIR] [--wasm=FILE --js=FILE --compat] [--model=FILE] [--runs=3]
//                               [--batch=128] [--threads=1] [--predict=64] [--label=NAME]
// --wllama: another wllama package (its esm/index.js and, unless --wasm says otherwise, its own wasm).
import { createServer } from 'node:http';
import { readFileSync, statSync, createReadStream, readdirSync, existsSync } from 'node:fs';
import { resolve, extname } from 'node:path';
import { homedir, loadavg } from 'node:os';
import { chromium } from 'playwright-core';
import { chromiumArgs, findChromium } from '../../scripts/chromium.mjs';
import { PROMPT } from './prompt.mjs';

const args = Object.fromEntries(
  process.argv.slice(2).map((a) => {
    const [k, v] = a.replace(/^--/, '').split('=');
    return [k, v ?? 'true'];
  }),
);
const root = resolve(import.meta.dirname, '../..');
const files = {
  '/wllama/index.js': resolve(args.wllama ?? resolve(root, 'node_modules/@wllama/wllama'), 'esm/index.js'),
  '/page.html': resolve(import.meta.dirname, 'page.html'),
  '/page.js': resolve(import.meta.dirname, 'page.js'),
  '/build.wasm': resolve(
    args.wasm ?? resolve(args.wllama ?? resolve(root, 'node_modules/@wllama/wllama'), 'esm/wasm/wllama.wasm'),
  ),
  '/model.gguf': resolve(args.model ?? `${homedir()}/.cache/inpage-agent/qwen2.5-coder-0.5b-instruct-q4_k_m.gguf`),
};
if (args.js) files['/build.js'] = resolve(args.js);
const runs = Number(args.runs ?? 3);
const batch = Number(args.batch ?? 128);
const threads = Number(args.threads ?? 1);
const predict = Number(args.predict ?? 64);
const types = { '.js': 'text/javascript', '.html': 'text/html', '.wasm': 'application/wasm' };

const server = createServer((req, res) => {
  const path = files[new URL(req.url, 'http://x').pathname];
  if (!path) return res.writeHead(404).end();
  res.writeHead(200, {
    'content-type': types[extname(path)] ?? 'application/octet-stream',
    'content-length': statSync(path).size,
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-embedder-policy': 'require-corp',
  });
  createReadStream(path).pipe(res);
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${server.address().port}`;

/** CPU seconds used so far by a process and all its descendants. */
function cpuSeconds(pid) {
  const children = new Map();
  const stats = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ppid = Number(fields[1]);
      stats.set(Number(entry), (Number(fields[11]) + Number(fields[12])) / 100);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(entry));
    } catch {}
  }
  let total = -(stats.get(pid) ?? 0);
  const stack = [pid];
  while (stack.length) {
    const p = stack.pop();
    total += stats.get(p) ?? 0;
    stack.push(...(children.get(p) ?? []));
  }
  return total;
}

const browser = await chromium.launch({ executablePath: findChromium(), args: chromiumArgs });
// Chromium is this process's child: count every descendant but this process itself.
const pid = process.pid;
const rows = [];
try {
  const page = await browser.newPage();
  page.on('pageerror', (e) => console.error('page error:', e.message));
  await page.goto(`${base}/page.html`);
  await page.waitForFunction(() => 'load' in window);
  const cfg = {
    wasm: '/build.wasm',
    js: args.js ? '/build.js' : undefined,
    compat: args.compat === 'true',
    model: '/model.gguf',
    batch,
    threads,
  };
  const loaded = await page.evaluate((c) => window.load(c), cfg);
  for (let run = 0; run < runs; run++) {
    const load0 = loadavg()[0];
    let c0 = cpuSeconds(pid);
    let w0 = performance.now();
    const pre = await page.evaluate((p) => window.prefill(p), PROMPT);
    const prefillCpu = cpuSeconds(pid) - c0;
    const prefillWall = (performance.now() - w0) / 1000;
    c0 = cpuSeconds(pid);
    w0 = performance.now();
    const dec = await page.evaluate(([p, n]) => window.decode(p, n), [PROMPT, predict]);
    const decodeCpu = cpuSeconds(pid) - c0;
    const decodeWall = (performance.now() - w0) / 1000;
    const row = {
      label: args.label ?? files['/build.wasm'],
      run,
      loadMs: Math.round(loaded.loadMs),
      promptTokens: pre.timings.prompt_n,
      prefillPerSec: +(pre.timings.prompt_n / (pre.timings.prompt_ms / 1000)).toFixed(2),
      prefillPerCoreSec: +(pre.timings.prompt_n / prefillCpu).toFixed(2),
      prefillCpuShare: +(prefillCpu / prefillWall).toFixed(2),
      decodeTokens: dec.timings.predicted_n,
      decodeCached: dec.timings.cache_n,
      decodePerSec: +(dec.timings.predicted_n / (dec.timings.predicted_ms / 1000)).toFixed(2),
      decodePerCoreSec: +(dec.timings.predicted_n / decodeCpu).toFixed(2),
      decodeCpuShare: +(decodeCpu / decodeWall).toFixed(2),
      load1: +load0.toFixed(2),
      text: (pre.text + dec.text).slice(0, 80),
    };
    rows.push(row);
    console.log(JSON.stringify(row));
  }
} finally {
  await browser.close();
  server.close();
}
const median = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : +((sorted[mid - 1] + sorted[mid]) / 2).toFixed(2);
};
console.log(
  JSON.stringify({
    label: args.label,
    median: {
      prefillPerSec: median(rows.map((r) => r.prefillPerSec)),
      prefillPerCoreSec: median(rows.map((r) => r.prefillPerCoreSec)),
      decodePerSec: median(rows.map((r) => r.decodePerSec)),
      decodePerCoreSec: median(rows.map((r) => r.decodePerCoreSec)),
      load1: median(rows.map((r) => r.load1)),
    },
  }),
);
