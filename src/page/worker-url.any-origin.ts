/**
 * Starts a module worker from a URL of any origin. A worker script must come
 * from the page's own origin; for one on another origin (a CDN), the worker is
 * a same-origin blob module that imports it (the file needs CORS headers, as
 * every module script from a CDN does). A SharedWorker cannot do the same:
 * each page's blob URL differs, so no two tabs would ever share one.
 */
import { AgentError } from '../errors';

const pageBase = () => (typeof document !== 'undefined' ? document.baseURI : location.href);

export function startModuleWorker(url: string | URL, name: string): Worker {
  const resolved = new URL(url, pageBase());
  if (resolved.origin === location.origin) return new Worker(resolved, { type: 'module', name });
  const importer = new Blob([`import ${JSON.stringify(resolved.href)};\n`], { type: 'text/javascript' });
  // Not revoked: the worker may fetch it after this returns.
  return new Worker(URL.createObjectURL(importer), { type: 'module', name });
}

export function startModuleSharedWorker(url: string | URL, name: string): SharedWorker {
  const resolved = new URL(url, pageBase());
  if (resolved.origin !== location.origin) {
    throw new AgentError(
      'worker-failed',
      `share: 'tabs' needs the shared worker on this page's origin, and ${resolved.href} is not. Serve inpage-agent.shared-worker.js with its chunks/ folder (node_modules/inpage-agent/dist/) from this origin and pass createAgent({ sharedWorkerUrl }).`,
    );
  }
  return new SharedWorker(resolved, { type: 'module', name });
}
