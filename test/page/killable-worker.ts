/**
 * The agent's real worker, plus kill switches for tests, on the BroadcastChannel
 * named by this worker's `?kill=` parameter:
 * - 'die' closes this worker at once, as a crash would (its Web Locks are
 *   released, its pending work is dropped);
 * - 'kill-inner' terminates every worker this one started and still runs
 *   (llama.cpp's own, which wllama starts from a blob: URL), as the browser
 *   does to a worker it stops out of memory, and answers { killedInner } with
 *   how many it stopped.
 * Product code has no such hook; tests pass this file as workerUrl.
 */
import '../../src/worker/worker-entry';

// Vitest wraps the dynamic imports of the code it serves (an engine's lazy chunk) in a helper it defines only in
// workers it recognises by their literal new URL(…); this one is started by a URL built at run time.
(globalThis as { __vitest_browser_runner__?: unknown }).__vitest_browser_runner__ ??= {
  wrapDynamicImport: (load: () => unknown) => load(),
};

/** The workers this worker started and has not terminated, whoever started them (wllama does, inside the engine). */
const running = new Set<Worker>();
const NativeWorker = globalThis.Worker;
if (NativeWorker)
  globalThis.Worker = class extends NativeWorker {
    constructor(url: string | URL, options?: WorkerOptions) {
      super(url, options);
      running.add(this);
    }
    override terminate(): void {
      running.delete(this);
      super.terminate();
    }
  };

const name = new URL(self.location.href).searchParams.get('kill');
// Held in a global: an unreferenced channel may be collected, and its listener with it.
const killSwitch = name ? new BroadcastChannel(name) : undefined;
if (killSwitch)
  killSwitch.onmessage = (message: MessageEvent<string>) => {
    if (message.data === 'die') return self.close();
    if (message.data !== 'kill-inner') return;
    const workers = [...running];
    for (const worker of workers) worker.terminate();
    killSwitch.postMessage({ killedInner: workers.length });
  };
(self as unknown as { killSwitch?: BroadcastChannel }).killSwitch = killSwitch;
