// Which thread count serves a visitor best on this machine: one request of the demo's CPU model
// (Qwen2.5-Coder-0.5B-Instruct) on 1 and on n threads in a cross-origin isolated page, with how the page keeps
// up meanwhile (bench/threads/page.ts). Alternates the counts, each sample in a fresh browser context. A count of
// `auto` leaves it to the engine (it measures the machine before the load). --busy=N keeps N cores busy with
// other processes meanwhile, as a visitor's other programs would; --repeat=N sizes the prompt (N times the
// instructions' paragraph, about 80 tokens each; 4 by default).
//
//   node scripts/measure-threads.mjs [samples=2] [threads=1,2,auto] [--busy=1] [--repeat=1]
import { spawn } from 'node:child_process';
import { createServer } from 'vite';
import { chromium } from 'playwright-core';
import { resolve } from 'node:path';
import { chromiumArgs, findChromium } from './chromium.mjs';

const MODEL = 'models/qwen2.5-coder-0.5b-instruct-q4_k_m.gguf';
const option = (name) => process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
const [samplesArg, countsArg] = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const samples = Number(samplesArg ?? 2);
const counts = (countsArg ?? '1,2').split(',').map((count) => (count === 'auto' ? undefined : Number(count)));
const repeat = Number(option('repeat') ?? 4);
// The other programs: each a process that keeps one core busy until this script ends.
const busy = Array.from({ length: Number(option('busy') ?? 0) }, () =>
  spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
);
process.once('exit', () => busy.forEach((child) => child.kill()));

const server = await createServer({
  root: resolve(import.meta.dirname, '..'),
  logLevel: 'error',
  // No reloads while a sample runs (files edited meanwhile would reload its page).
  server: { host: '127.0.0.1', port: 0, hmr: false, watch: null },
});
await server.listen();
const base = server.resolvedUrls.local[0];
const browser = await chromium.launch({ executablePath: findChromium(), args: chromiumArgs });
const rows = [];
try {
  for (let sample = 0; sample < samples; sample++)
    for (const threads of counts) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${base}bench/threads/`);
      await page.waitForFunction(() => 'measure' in window);
      const result = await page.evaluate(
        ([url, n, times]) => window.measure(url, n ?? undefined, times),
        [new URL(MODEL, base).href, threads ?? null, repeat],
      );
      rows.push(result);
      console.log(JSON.stringify(result));
      await context.close();
    }
} finally {
  await browser.close();
  await server.close();
  busy.forEach((child) => child.kill());
}
const r = (value) => (typeof value === 'number' ? Math.round(value * 10) / 10 : value);
console.table(
  rows.map((row) => ({
    asked: row.asked,
    threads: row.threads,
    isolated: row.isolated,
    'prompt tok': row.promptTokens,
    'first token s': r(row.firstTokenMs / 1000),
    'prefill tok/s': r(row.prefillTokensPerSecond),
    'decode tok/s': r(row.decodeTokensPerSecond),
    'frame gap p95 ms (prefill)': r(row.prefill.frameGapMs.p95),
    'frame gap p95 ms (decode)': r(row.decode.frameGapMs.p95),
    'frame gap max ms': r(Math.max(row.prefill.frameGapMs.max, row.decode.frameGapMs.max)),
    'timer late p95 ms': r(Math.max(row.prefill.timerLateMs.p95, row.decode.timerLateMs.p95)),
    'long tasks': row.prefill.longTasks + row.decode.longTasks,
  })),
);
