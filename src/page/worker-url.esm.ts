/**
 * ESM builds: the worker files sit next to this module. A worker constructed
 * from a literal URL relative to import.meta.url is the pattern bundlers follow
 * (Vite, webpack, Parcel): they bundle the worker into the app and rewrite the
 * URL. A browser loading this module directly finds the file beside it. Keep
 * both calls in exactly this shape (scripts/build.mjs checks the output).
 */
export function startDefaultWorker(name: string): Worker {
  return new Worker(new URL('./inpage-agent.worker.js', import.meta.url), { type: 'module', name });
}

export function startDefaultSharedWorker(name: string): SharedWorker {
  return new SharedWorker(new URL('./inpage-agent.shared-worker.js', import.meta.url), { type: 'module', name });
}
