/**
 * Where the workers come from when the page runs from source (vite's dev
 * server, the tests). Vite rewrites these `new Worker(new URL(…))` patterns.
 * The library builds swap this file for worker-url.esm.ts / worker-url.iife.ts,
 * which find the worker files next to the page bundle.
 */
export function startDefaultWorker(name: string): Worker {
  return new Worker(new URL('../worker/worker-entry.ts', import.meta.url), { type: 'module', name });
}

export function startDefaultSharedWorker(name: string): SharedWorker {
  return new SharedWorker(new URL('../worker/shared-worker-entry.ts', import.meta.url), { type: 'module', name });
}
