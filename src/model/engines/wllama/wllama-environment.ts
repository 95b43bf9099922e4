/**
 * What llama.cpp in WebAssembly needs from the browser and the page, checked
 * before anything is downloaded, so that each lack is one clear error instead
 * of a load that never settles:
 *
 * - WebAssembly with SIMD and exception handling (every current browser).
 * - A Content-Security-Policy that lets WebAssembly compile
 *   ('wasm-unsafe-eval' in script-src) and lets this worker start wllama's
 *   own worker from a blob: URL (blob: in worker-src). Under a policy without
 *   either, wllama's loadModel neither resolves nor rejects.
 * - Worker, to start that worker: a SharedWorker has none in Chromium.
 *
 * And how many threads it may use: more than one only where the page is
 * cross-origin isolated (COOP/COEP), the only place SharedArrayBuffer exists.
 */
import { AgentError } from '../../../errors';

// The smallest modules that use a SIMD instruction and a try block (wasm-feature-detect's probes).
const SIMD_PROBE = [
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11,
];
const EXCEPTIONS_PROBE = [
  0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 96, 0, 0, 3, 2, 1, 0, 10, 8, 1, 6, 0, 6, 64, 25, 11, 11,
];
const EMPTY_MODULE = [0, 97, 115, 109, 1, 0, 0, 0];
/** How long a blob: worker may take to say it started before the policy is taken to forbid it. */
const WORKER_PROBE_MS = 10_000;

const CSP_NEEDS = "script-src 'wasm-unsafe-eval' and worker-src blob:";

export async function checkEnvironment(): Promise<void> {
  if (typeof WebAssembly !== 'object') throw unsupported('This browser has no WebAssembly, which llama.cpp needs.');
  if (!WebAssembly.validate(new Uint8Array(SIMD_PROBE)) || !WebAssembly.validate(new Uint8Array(EXCEPTIONS_PROBE)))
    throw unsupported(
      "This browser's WebAssembly lacks SIMD or exception handling, which llama.cpp needs (Chrome 95+, Firefox 100+, Safari 16.4+ have both).",
    );
  try {
    await WebAssembly.compile(new Uint8Array(EMPTY_MODULE));
  } catch (error) {
    throw new AgentError(
      'csp-blocked',
      `This page's Content-Security-Policy does not let WebAssembly compile, so llama.cpp cannot run (${error instanceof Error ? error.message : String(error)}). Add 'wasm-unsafe-eval' to script-src (the policy needs ${CSP_NEEDS}).`,
      { cause: error },
    );
  }
  if (typeof Worker !== 'function')
    throw unsupported(
      "llama.cpp runs in a worker of its own, and this context cannot start one (a SharedWorker cannot in Chromium). Create the agent without share: 'tabs'.",
    );
  await probeBlobWorker();
}

/** Starts a tiny blob: worker and waits for its first message; the policy's refusal is an error event (or a throw). */
async function probeBlobWorker(): Promise<void> {
  const url = URL.createObjectURL(new Blob(['postMessage(1)'], { type: 'text/javascript' }));
  let worker: Worker | undefined;
  try {
    const started = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), WORKER_PROBE_MS);
      try {
        worker = new Worker(url, { type: 'module' });
      } catch {
        clearTimeout(timer);
        resolve(false);
        return;
      }
      worker.onmessage = () => {
        clearTimeout(timer);
        resolve(true);
      };
      worker.onerror = (event) => {
        event.preventDefault();
        clearTimeout(timer);
        resolve(false);
      };
    });
    if (!started)
      throw new AgentError(
        'csp-blocked',
        `This page's Content-Security-Policy does not let the agent's worker start llama.cpp's own worker from a blob: URL. Add blob: to worker-src (the policy needs ${CSP_NEEDS}).`,
      );
  } finally {
    worker?.terminate();
    URL.revokeObjectURL(url);
  }
}

/** What a page must send for more than one thread, said wherever one thread is all it gets. */
const ISOLATION_NEEDS =
  'Serve the page with Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: require-corp (or credentialless), or register a service worker that adds them (docs/threads.md).';

/**
 * Threads llama.cpp may use here, and why no more: `asked` is model.threads. Where the page is not isolated
 * and the device has cores to spare, the notice says so even when the page asked for no count, since a
 * page that never asked is the one that does not know; a page that asked for one thread hears nothing.
 */
export function threadsFor(asked?: number): { threads: number; notice?: string } {
  const cores = Math.max(1, globalThis.navigator?.hardwareConcurrency ?? 1);
  const isolated = globalThis.crossOriginIsolated === true && typeof SharedArrayBuffer === 'function';
  if (!isolated) {
    const wanted = asked ?? defaultThreads(cores);
    return {
      threads: 1,
      ...(wanted > 1 && {
        notice:
          asked === undefined
            ? `llama.cpp runs on one thread of this device's ${cores} cores because this page is not cross-origin isolated (threads need SharedArrayBuffer). ${ISOLATION_NEEDS}`
            : `model.threads is ${asked}, but this page is not cross-origin isolated, so llama.cpp runs on one thread. ${ISOLATION_NEEDS}`,
      }),
    };
  }
  const wanted = asked ?? defaultThreads(cores);
  return { threads: Math.max(1, Math.min(wanted, cores)) };
}

/**
 * The default in an isolated page: half the cores, since the page and the browser need the rest, but at least
 * two where there are two. Measured on a 2-core machine (docs/threads.md): two threads read the prompt 1.7 times
 * and write 1.5 times as fast as one, with the page's frames unchanged.
 */
function defaultThreads(cores: number): number {
  return Math.min(cores, Math.max(2, Math.floor(cores / 2)));
}

function unsupported(message: string): AgentError {
  return new AgentError(
    'wasm-unsupported',
    `${message} Without it, use a model engine that runs elsewhere (model: { engine: 'module', url }) or the scripted engine.`,
  );
}

/**
 * Whether llama.cpp will find a GPU: wllama asks for WebGPU wherever the browser has the API, and runs on the
 * CPU when no adapter answers (a machine without a graphics chip, or with WebGPU turned off).
 */
export async function gpuAdapterFound(): Promise<boolean> {
  const gpu = (globalThis.navigator as { gpu?: { requestAdapter(): Promise<unknown> } } | undefined)?.gpu;
  if (!gpu) return false;
  try {
    return (await gpu.requestAdapter()) !== null;
  } catch {
    return false;
  }
}
