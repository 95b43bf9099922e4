// Runs relaxed-dot-bench.wasm (built by relaxed-dot-bench.sh) in headless Chromium, where relaxed SIMD ships
// (Node 20's V8 has it only behind a flag, with other results: its relaxed dot of 3·5 over 4 lanes plus 1 is
// 120, not 61). Prints one JSON line per kernel.
import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { chromiumArgs, findChromium } from '../../scripts/chromium.mjs';

const bytes = [...readFileSync(process.argv[2])];
const browser = await chromium.launch({ executablePath: findChromium(), args: chromiumArgs });
try {
  const page = await browser.newPage();
  const rows = await page.evaluate(async (wasm) => {
    const kernels = ['q5_0_q8_0', 'q4_K_q8_K', 'q8_0_q8_0'];
    const out = [];
    const env = {
      now: () => performance.now(),
      report: (kernel, ggml, ours, ggmlDiff, oursDiff) =>
        out.push({
          kernel: kernels[kernel],
          ggmlNsPerWeight: +ggml.toFixed(4),
          relaxedNsPerWeight: +ours.toFixed(4),
          speedup: +(ggml / ours).toFixed(2),
          // Largest difference from a plain C reference, relative to the sum (at least 0.001).
          ggmlMaxDiff: +ggmlDiff.toExponential(2),
          relaxedMaxDiff: +oursDiff.toExponential(2),
        }),
    };
    // ggml's functions for other cases (generic fallbacks, aborts) are imports never called here.
    const imports = {
      env: new Proxy(env, {
        get: (e, name) =>
          e[name] ??
          (() => {
            throw new Error(`${String(name)} called`);
          }),
      }),
    };
    const { instance } = await WebAssembly.instantiate(new Uint8Array(wasm), imports);
    instance.exports.bench();
    return out;
  }, bytes);
  for (const row of rows) console.log(JSON.stringify(row));
} finally {
  await browser.close();
}
