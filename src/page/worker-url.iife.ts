/**
 * Script-tag build: the worker files sit next to the script, on whatever
 * origin it was loaded from. The script's own URL is only known while it
 * first runs, so it is read once, then.
 */
import { startModuleSharedWorker, startModuleWorker } from './worker-url.any-origin';

const scriptUrl =
  typeof document !== 'undefined' ? (document.currentScript as HTMLScriptElement | null)?.src : undefined;
const besideScript = (file: string) =>
  new URL(`./${file}`, scriptUrl ?? (typeof location !== 'undefined' ? location.href : ''));

export function startDefaultWorker(name: string): Worker {
  return startModuleWorker(besideScript('inpage-agent.worker.js'), name);
}

export function startDefaultSharedWorker(name: string): SharedWorker {
  return startModuleSharedWorker(besideScript('inpage-agent.shared-worker.js'), name);
}
