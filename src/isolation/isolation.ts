/**
 * inpage-agent-isolation.js: cross-origin isolation on a static host that
 * cannot send headers (GitHub Pages, a plain file host), so that llama.cpp
 * runs on more than one thread. One classic script, served from the site's
 * own origin at (or above) its pages, plays two parts:
 *
 * - in the page (`<script src="/inpage-agent-isolation.js"></script>`, first
 *   in <head>): registers itself as the service worker of its folder and, once
 *   that controls the page, reloads it once; a page already isolated, or one
 *   the browser still would not isolate after that reload, is left alone;
 * - as the service worker: adds `Cross-Origin-Opener-Policy: same-origin` and
 *   `Cross-Origin-Embedder-Policy` (`require-corp`, or `credentialless` with
 *   `?coep=credentialless` on the script's address) to the site's own
 *   navigations and its own worker scripts, and to nothing else. Every other
 *   request (another origin's, a POST, a stylesheet, a model file) is left to
 *   the browser: the worker does not answer it at all.
 *
 * It keeps nothing: each answer is the network's answer to that very request,
 * so a `no-store` or `private` response is never stored, and no request is
 * ever answered with another's response (another query string, another user).
 * coi-serviceworker (npm) takes the same approach; this one touches less: it
 * leaves other origins' responses as they are instead of marking them
 * loadable by any page.
 */

/** The part of a service worker's global scope this script uses (the DOM's types have no worker scope). */
interface WorkerScope {
  location: Location;
  registration: unknown;
  skipWaiting(): Promise<void>;
  clients: { claim(): Promise<void> };
  addEventListener(
    type: 'install' | 'activate',
    listener: (event: { waitUntil(p: Promise<unknown>): void }) => void,
  ): void;
  addEventListener(type: 'fetch', listener: (event: FetchEventLike) => void): void;
}

interface FetchEventLike {
  request: Request;
  respondWith(response: Promise<Response>): void;
}

/** Set (in sessionStorage) for the one reload: a page still not isolated after it is not reloaded again. */
const RELOADED = 'inpage-agent-isolation:reloaded';

if (typeof window === 'undefined') serveIsolated(self as unknown as WorkerScope);
else void isolatePage();

function serveIsolated(scope: WorkerScope): void {
  const coep =
    new URL(scope.location.href).searchParams.get('coep') === 'credentialless' ? 'credentialless' : 'require-corp';
  scope.addEventListener('install', (event) => event.waitUntil(scope.skipWaiting()));
  // The page that registered it is controlled at once, so its reload is the first isolated load.
  scope.addEventListener('activate', (event) => event.waitUntil(scope.clients.claim()));
  scope.addEventListener('fetch', (event) => {
    if (!isOurs(event.request, scope.location.origin)) return;
    event.respondWith(withIsolation(event.request, coep));
  });
}

/** A document of this site (a navigation, a frame of it) or a worker script of this site, fetched with GET. */
function isOurs(request: Request, origin: string): boolean {
  if (request.method !== 'GET' || new URL(request.url).origin !== origin) return false;
  const destination = request.destination;
  return (
    request.mode === 'navigate' ||
    destination === 'document' ||
    destination === 'iframe' ||
    destination === 'worker' ||
    destination === 'sharedworker'
  );
}

async function withIsolation(request: Request, coep: string): Promise<Response> {
  const response = await fetch(request);
  // A redirect the browser follows itself (it comes back here), or an answer whose headers cannot be read.
  if (response.type === 'opaqueredirect' || response.status === 0) return response;
  const headers = new Headers(response.headers);
  headers.set('Cross-Origin-Opener-Policy', 'same-origin');
  headers.set('Cross-Origin-Embedder-Policy', coep);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

async function isolatePage(): Promise<void> {
  if (globalThis.crossOriginIsolated) {
    sessionStorage.removeItem(RELOADED);
    return;
  }
  // Service workers need a secure context (https, or localhost); without one the page runs on one thread.
  const script = document.currentScript as HTMLScriptElement | null;
  if (!script?.src || !window.isSecureContext || !('serviceWorker' in navigator)) return;
  // Reloaded once already in this tab and still not isolated: the browser will not (an old one, a frame of
  // another site). Not again, on this page or the next.
  if (sessionStorage.getItem(RELOADED)) return;
  await navigator.serviceWorker.register(script.src, script.dataset.scope ? { scope: script.dataset.scope } : {});
  await navigator.serviceWorker.ready;
  if (!navigator.serviceWorker.controller)
    await new Promise((resolve) =>
      navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }),
    );
  sessionStorage.setItem(RELOADED, '1');
  location.reload();
}
