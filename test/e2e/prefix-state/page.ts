// The page the prefix-state test drives: our WebAssembly build of llama.cpp in wllama's worker, the 0.5B from
// /models/, and the calls the engine will make (sequence-state.ts, prefix-state-store.ts). Each call starts a
// new wllama (a new worker and a new llama.cpp) unless the test asks to go on with the last one.
import { Wllama } from '@wllama/wllama/esm/index.js';
import { restoreSequenceState, saveSequenceState } from '../../../src/model/engines/wllama/sequence-state';
import { findPrefixState, keepPrefixState, type PrefixKey } from '../../../src/model/engines/wllama/prefix-state-store';

const quiet = { ...console, debug: () => {}, log: () => {}, info: () => {}, warn: () => {} };
let wllama: Wllama | undefined;

interface Timings {
  cache_n?: number;
  prompt_n?: number;
}

async function fresh(model: string): Promise<Wllama> {
  await wllama?.exit();
  const wasm = new URL('/wasm-build/wllama.wasm', location.href).href;
  const js = new URL('/wasm-build/wllama.js', location.href).href;
  const next = new Wllama({ default: wasm }, { logger: quiet, suppressNativeLog: true });
  next.setCompat(null);
  // Our build (wasm/build.sh) in place of wllama's: its seam for another build's JS and wasm.
  (next as unknown as { getWorkerResources(): unknown }).getWorkerResources = () => ({
    wasmPath: wasm,
    jsPath: js,
    compat: true,
    noWebGPU: true,
  });
  const blob = await (await fetch(model)).blob();
  await next.loadModel([blob], { n_ctx: 2048, n_batch: 128, n_parallel: 1, n_threads: 1, n_gpu_layers: 0 });
  return (wllama = next);
}

async function complete(prompt: string, n_predict: number): Promise<{ text: string; timings: Timings }> {
  let text = '';
  let timings: Timings = {};
  const stream = (await wllama!.createCompletion({
    prompt,
    n_predict,
    temperature: 0,
    cache_prompt: true,
    stream: true,
  } as never)) as unknown as AsyncIterable<{ choices?: { text?: string }[]; timings?: Timings }>;
  for await (const chunk of stream) {
    text += chunk.choices?.[0]?.text ?? '';
    if (chunk.timings) timings = chunk.timings;
  }
  return { text, timings };
}

const api = {
  /** A new llama.cpp reads `prompt` whole and writes `n` tokens. */
  async answer(model: string, prompt: string, n: number) {
    await fresh(model);
    return complete(prompt, n);
  },
  /** A new llama.cpp reads the prefix ahead and keeps its state for the key; what was kept and how big. */
  async readAheadAndKeep(model: string, key: PrefixKey) {
    await fresh(model);
    const read = await complete(key.prefix, 0);
    const t0 = performance.now();
    const state = await saveSequenceState(wllama!);
    const saveMs = performance.now() - t0;
    const fileBytes = await keepPrefixState(key, state.bytes);
    return { read: read.timings, tokens: state.tokens, stateBytes: state.bytes.byteLength, fileBytes, saveMs };
  },
  /** The state kept for the key, if any passes its checks (its size, or null). */
  async find(key: PrefixKey) {
    return (await findPrefixState(key))?.byteLength ?? null;
  },
  /** A new llama.cpp restores the state kept for the key, then reads `prompt` (which starts with the prefix). */
  async restoreAndAnswer(model: string, key: PrefixKey, prompt: string, n: number) {
    await fresh(model);
    const state = await findPrefixState(key);
    if (!state) return { restored: null };
    const t0 = performance.now();
    const restored = await restoreSequenceState(wllama!, state);
    const restoreMs = performance.now() - t0;
    return { restored, restoreMs, ...(await complete(prompt, n)) };
  },
  /** A new llama.cpp is handed `bytes` as a state: the error it gives, then how it reads `prompt`. */
  async restoreBytes(model: string, bytes: number[], prompt: string, n: number) {
    await fresh(model);
    const refused = await restoreSequenceState(wllama!, new Uint8Array(bytes)).then(
      (tokens) => `restored ${tokens}`,
      (error: Error & { code?: string }) => `${error.code}: ${error.message}`,
    );
    return { refused, ...(await complete(prompt, n)) };
  },
  /** Changes one byte of the kept file for the key (a disk or a program that wrote over it). */
  async damage(key: PrefixKey, at: number) {
    const dir = await (await navigator.storage.getDirectory()).getDirectoryHandle('inpage-agent-prefix-state');
    for await (const [name, handle] of dir as unknown as AsyncIterable<[string, FileSystemFileHandle]>) {
      const bytes = new Uint8Array(await (await handle.getFile()).arrayBuffer());
      bytes[at] = (bytes[at] ?? 0) ^ 0xff;
      const writable = await handle.createWritable();
      await writable.write(bytes);
      await writable.close();
      void name;
    }
    return findPrefixState(key).then((state) => state?.byteLength ?? null);
  },
};

Object.assign(window, { prefixState: api });
