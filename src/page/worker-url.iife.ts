/**
 * Script-tag build: the worker file sits next to the script. The script's
 * own URL is only known while it first runs, so it is read once, then.
 */
const scriptUrl = typeof document !== 'undefined' ? (document.currentScript as HTMLScriptElement | null)?.src : undefined;

export function startDefaultWorker(name: string): Worker {
  const base = scriptUrl ?? (typeof location !== 'undefined' ? location.href : '');
  return new Worker(new URL('./inpage-agent.worker.js', base), { type: 'module', name });
}
