/** ESM build: the worker files sit next to this module. */
export function startDefaultWorker(name: string): Worker {
  return new Worker(new URL('./inpage-agent.worker.js', import.meta.url), { type: 'module', name });
}

export function startDefaultSharedWorker(name: string): SharedWorker {
  return new SharedWorker(new URL('./inpage-agent.shared-worker.js', import.meta.url), { type: 'module', name });
}
