/**
 * ESM build: the worker files sit next to this module. The names are kept
 * in variables so that a bundler does not try to bundle the workers in.
 */
const WORKER_FILE = 'inpage-agent.worker.js';
const SHARED_WORKER_FILE = 'inpage-agent.shared-worker.js';

export function startDefaultWorker(name: string): Worker {
  return new Worker(new URL(WORKER_FILE, import.meta.url), { type: 'module', name });
}

export function startDefaultSharedWorker(name: string): SharedWorker {
  return new SharedWorker(new URL(SHARED_WORKER_FILE, import.meta.url), { type: 'module', name });
}
