/**
 * llama.cpp's own worker, watched. wllama runs llama.cpp in a worker it
 * starts inside ours from a blob: URL, and when that worker dies (the browser
 * stops it out of memory, or it is terminated) wllama is never told: every
 * call it sent stays pending, and a run hung with status `running`.
 *
 * A worker's death fires no event, but it releases the worker's Web Locks at
 * once, however it died; that is how the page watches our own worker
 * (contract/lifeline.ts). So while wllama starts its worker, the worker is
 * started from its own code behind one line that takes a lock, holds it for
 * as long as the worker lives, and says so; once it has, we queue on the same
 * lock, and being granted it means llama.cpp's worker is gone.
 *
 * The line rides in a new blob: of the same code, so a page's
 * Content-Security-Policy that lets wllama start its worker (worker-src
 * blob:) lets this one start too. Where Web Locks are missing (an opaque
 * origin) the worker runs unwatched, as before.
 */

/** The message the worker posts once it holds its lifeline; wllama ignores a message with no callbackId. */
const HELD = 'inpage-agent.lifeline-held';

export interface LlamaWorkerWatch {
  /** Resolves when llama.cpp's worker is gone; never, when it could not be watched. */
  readonly gone: Promise<void>;
}

/** What runs first in llama.cpp's worker: its lifeline. */
function lifelineLine(name: string): string {
  const held = JSON.stringify({ verb: HELD });
  return `navigator.locks?.request(${JSON.stringify(name)}, () => { postMessage(${held}); return new Promise(() => {}); }).catch(() => {});\n`;
}

/** One start at a time: the globals below are borrowed for the start of one worker. */
let turn: Promise<unknown> = Promise.resolve();

/**
 * Runs `start` (wllama's loadModel), and watches the worker it starts: `Worker` and `URL.createObjectURL` are
 * wrapped from the call until that worker exists (or `start` settles), so that a module worker started from a
 * blob: URL starts with its lifeline. Only wllama starts workers in our worker.
 */
export async function watchWorkerStartedBy(start: () => Promise<void>): Promise<{
  watch: LlamaWorkerWatch;
  loading: Promise<void>;
}> {
  const previous = turn;
  let done!: () => void;
  turn = new Promise<void>((resolve) => (done = resolve));
  await previous;
  let watchGone!: () => void;
  const watch: LlamaWorkerWatch = { gone: new Promise<void>((resolve) => (watchGone = resolve)) };
  const restore = borrowGlobals((worker, name, url) => {
    restore();
    done();
    const onHeld = (message: MessageEvent<unknown>) => {
      if ((message.data as { verb?: unknown } | null)?.verb !== HELD) return;
      worker.removeEventListener('message', onHeld);
      URL.revokeObjectURL(url);
      void navigator.locks.request(name, () => watchGone());
    };
    worker.addEventListener('message', onHeld);
  });
  let loading: Promise<void>;
  try {
    loading = start();
  } catch (error) {
    loading = Promise.reject(error);
  }
  void loading.then(
    () => (restore(), done()),
    () => (restore(), done()),
  );
  return { watch, loading };
}

/**
 * Wraps `URL.createObjectURL` (to know the blob behind a blob: URL) and `Worker` (to start a module worker from
 * such a blob behind its lifeline) until the returned function puts them back.
 */
function borrowGlobals(started: (worker: Worker, lifeline: string, url: string) => void): () => void {
  const NativeWorker = globalThis.Worker;
  const nativeCreate = URL.createObjectURL;
  if (typeof NativeWorker !== 'function' || typeof navigator === 'undefined' || !navigator.locks) return () => {};
  const blobs = new Map<string, Blob>();
  const createObjectURL = (object: Blob | MediaSource): string => {
    const url = nativeCreate.call(URL, object);
    if (object instanceof Blob) blobs.set(url, object);
    return url;
  };
  let watched: { url: string; name: string } | undefined;
  const behindLifeline = (url: string | URL, options?: WorkerOptions): string | URL => {
    const blob = blobs.get(String(url));
    if (watched || !blob || options?.type !== 'module') return url;
    const name = `inpage-agent/llama-worker/${crypto.randomUUID()}`;
    watched = { url: nativeCreate.call(URL, new Blob([lifelineLine(name), blob], { type: 'text/javascript' })), name };
    return watched.url;
  };
  class WatchedWorker extends NativeWorker {
    constructor(url: string | URL, options?: WorkerOptions) {
      super(behindLifeline(url, options), options);
      const lifeline = watched;
      if (lifeline && !restored) started(this, lifeline.name, lifeline.url);
    }
  }
  let restored = false;
  URL.createObjectURL = createObjectURL;
  globalThis.Worker = WatchedWorker;
  return () => {
    if (restored) return;
    restored = true;
    // Put back only what is still ours: whatever wrapped them after us keeps its wrapper.
    if (URL.createObjectURL === createObjectURL) URL.createObjectURL = nativeCreate;
    if (globalThis.Worker === WatchedWorker) globalThis.Worker = NativeWorker;
  };
}
