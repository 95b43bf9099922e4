/** ESM build: the worker file sits next to this module. */
export function startDefaultWorker(name: string): Worker {
  return new Worker(new URL('./inpage-agent.worker.js', import.meta.url), { type: 'module', name });
}
