/**
 * Where the worker comes from when the page runs from source (vite's dev
 * server, the tests). Vite rewrites this `new Worker(new URL(…))` pattern.
 * The library builds swap this file for worker-url.esm.ts / worker-url.iife.ts,
 * which find dist/inpage-agent.worker.js next to the page bundle.
 */
export function startDefaultWorker(name: string): Worker {
  return new Worker(new URL('../worker/worker-entry.ts', import.meta.url), { type: 'module', name });
}
