/**
 * What keeps a load from failing silently or hanging: llama.cpp's wasm is
 * asked for before wllama's inner worker fetches it (that worker's failures
 * never reach us), and the load is raced against a watch on llama.cpp's log,
 * its worker and the abort.
 */
import { AgentError } from '../../../errors';
import type { WllamaLog } from './wllama-log';

export function loadAborted(): AgentError {
  return new AgentError('aborted', 'Loading the model was aborted.');
}

/** The wasm is fetched by wllama's inner worker, whose failures never reach us: ask for it first. */
export async function checkWasm(url: string, signal?: AbortSignal): Promise<void> {
  let status: number;
  try {
    const timeout = AbortSignal.timeout(15_000);
    status = (await fetch(url, { method: 'HEAD', signal: signal ? AbortSignal.any([signal, timeout]) : timeout }))
      .status;
  } catch (error) {
    if (signal?.aborted) throw loadAborted();
    throw new AgentError(
      'download-failed',
      `llama.cpp's WebAssembly file ${url} could not be fetched (${error instanceof Error ? error.message : String(error)}).`,
      { cause: error },
    );
  }
  if (status >= 400)
    throw new AgentError(
      'download-failed',
      `llama.cpp's WebAssembly file is not at ${url} (HTTP ${status}). Serve wllama.wasm from inpage-agent's dist/chunks/ beside the worker's chunks, or pass its address as model.wasmUrl.`,
      { details: { url, status } },
    );
}

/**
 * The load, or an error if llama.cpp writes nothing for `stallMs` (a load that will never settle:
 * a policy that stopped its worker, a wasm that never arrives), or if its worker dies, or the abort.
 */
export async function settleOrStall(
  loading: Promise<void>,
  log: WllamaLog,
  stallMs: number,
  signal?: AbortSignal,
  gone?: Promise<void>,
): Promise<void> {
  let timer: ReturnType<typeof setInterval> | undefined;
  let onAbort: (() => void) | undefined;
  const watch = new Promise<never>((_, reject) => {
    timer = setInterval(
      () => {
        if (performance.now() - log.lastActivity < stallMs) return;
        reject(
          new AgentError(
            'model-failed',
            `Loading the model stalled: llama.cpp has said nothing for ${Math.round(stallMs / 1000)} s. Its own worker may have been stopped by the page's Content-Security-Policy (it needs script-src 'wasm-unsafe-eval' and worker-src blob:), or its WebAssembly file never arrived.`,
          ),
        );
      },
      Math.min(1000, stallMs / 4),
    );
    onAbort = () => reject(loadAborted());
    signal?.addEventListener('abort', onAbort, { once: true });
    void gone?.then(() =>
      reject(
        new AgentError(
          'model-crashed',
          "llama.cpp's worker stopped while it loaded the model (the browser ended it: out of memory, or terminated). Try again; if it happens each time, use a smaller model or quantization, or a smaller model.contextWindow.",
        ),
      ),
    );
  });
  log.lastActivity = performance.now();
  try {
    await Promise.race([loading, watch]);
  } finally {
    clearInterval(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
    loading.catch(() => undefined);
  }
}
