/**
 * The self-contained ESM file (inpage-agent.js, for a CDN or a plain module
 * script): the worker files sit beside this module, on whatever origin it
 * was loaded from.
 */
import { startModuleSharedWorker, startModuleWorker } from './worker-url.any-origin';

export function startDefaultWorker(name: string): Worker {
  return startModuleWorker(new URL('./inpage-agent.worker.js', import.meta.url), name);
}

export function startDefaultSharedWorker(name: string): SharedWorker {
  return startModuleSharedWorker(new URL('./inpage-agent.shared-worker.js', import.meta.url), name);
}
