// The measuring page: one llama.cpp build in wllama's worker, one model, phases the driver times from outside.
import { Wllama } from '/wllama/index.js';

const quiet = { ...console, debug: () => {}, log: () => {}, info: () => {}, warn: () => {} };
let wllama;

/** Loads `cfg.model` into the build named by `cfg` (wllama's own, or a build of ours through its worker seam). */
window.load = async (cfg) => {
  const wasm = new URL(cfg.wasm, location.href).href;
  wllama = new Wllama({ default: wasm }, { logger: quiet, suppressNativeLog: true });
  wllama.setCompat(null);
  if (cfg.js) {
    const js = new URL(cfg.js, location.href).href;
    // wllama takes another build's JS and wasm only through its compat seam; Chromium never asks for it.
    wllama.getWorkerResources = () => ({ wasmPath: wasm, jsPath: js, compat: !!cfg.compat, noWebGPU: true });
  }
  const blob = await (await fetch(cfg.model)).blob();
  const t0 = performance.now();
  await wllama.loadModel([blob], {
    n_ctx: 2048,
    n_batch: cfg.batch,
    n_ubatch: cfg.batch,
    n_parallel: 1,
    n_threads: cfg.threads,
    n_gpu_layers: 0,
  });
  return { loadMs: performance.now() - t0 };
};

async function complete(params) {
  let last;
  let text = '';
  const stream = await wllama.createCompletion({ temperature: 0, stream: true, ...params });
  for await (const chunk of stream) {
    last = chunk;
    text += chunk.choices?.[0]?.text ?? '';
  }
  return { text, timings: last?.timings };
}

/** Reads the whole prompt (nothing reused) and one token. */
window.prefill = (prompt) => complete({ prompt, n_predict: 1, cache_prompt: false });

/** With the prompt already read: `n` tokens, greedy, past any end token. */
window.decode = (prompt, n) => complete({ prompt, n_predict: n, cache_prompt: true, ignore_eos: true });
