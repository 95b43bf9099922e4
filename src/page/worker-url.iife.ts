/**
 * Script-tag build: the worker files sit next to the script. The script's
 * own URL is only known while it first runs, so it is read once, then.
 */
const scriptUrl =
  typeof document !== 'undefined' ? (document.currentScript as HTMLScriptElement | null)?.src : undefined;
const besideScript = (file: string) =>
  new URL(`./${file}`, scriptUrl ?? (typeof location !== 'undefined' ? location.href : ''));

export function startDefaultWorker(name: string): Worker {
  return new Worker(besideScript('inpage-agent.worker.js'), { type: 'module', name });
}

export function startDefaultSharedWorker(name: string): SharedWorker {
  return new SharedWorker(besideScript('inpage-agent.shared-worker.js'), { type: 'module', name });
}
