// The demo's service worker: after one visit, the app shell and every built file come from
// the cache, so the page and its scripted tour run with the network off. Model weights are
// cached by their engines themselves (web-llm, and the agent's GGUF cache), not here. Files are
// listed by vite's build manifest (the demo-mode engine module is an entry there), so nothing is guessed.
//
// It also makes the page cross-origin isolated on any static host, one that cannot send headers
// too (GitHub Pages): every response it hands the page carries COOP and COEP, as coi-serviceworker
// does, so llama.cpp may use more than one thread. One scope has one service worker, so the
// technique lives here rather than in a second worker. It applies from the first load this worker
// controls: the page reloads once for it when a CPU model is loaded (demo/main.ts).
//
// Its scope is the demo's folder, where a site may keep other pages and files: it touches only the
// demo's own, its pages and what vite built for them (assets/) and the files of public/. Anything
// else (another page, an API, a model) goes to the network as if there were no service worker: not
// isolated, never cached. And of the demo's own, it never keeps an answer marked no-store or private,
// serves a cached file only for its own address (a page only for its own path, whatever its query),
// and offline answers a file it does not have with a network error, never with the page.
const CACHE = 'inpage-agent-demo-v3';
// Files of public/ that vite copies as they are, so its manifest does not list them.
const PUBLIC_FILES = ['favicon.svg', 'manifest.webmanifest', 'icon-192.png', 'icon-512.png'];
// The demo's pages, by their path in the scope ('' is the folder itself).
const PAGES = ['', 'index.html', 'eval.html'];
/** Where vite writes what it builds (vite.config.ts leaves build.assetsDir at its default). */
const ASSETS = 'assets/';

// The demo page and its engine, with everything they import; not the BFCL self-test (eval.html),
// whose benchmark data (megabytes) only its own visitors should download.
const ENTRIES = ['index.html', 'demo/engine/stand-in.ts'];

const scope = () => new URL(self.registration.scope);

/** The path of `url` within the scope, or undefined when it is outside (another origin or folder). */
function inScope(url) {
  const { origin, pathname } = scope();
  return url.origin === origin && url.pathname.startsWith(pathname) ? url.pathname.slice(pathname.length) : undefined;
}

const isPage = (path) => PAGES.includes(path);
const isDemoFile = (path) => isPage(path) || PUBLIC_FILES.includes(path) || path.startsWith(ASSETS);

async function precache() {
  const cache = await caches.open(CACHE);
  const manifest = await (await fetch('.vite/manifest.json', { cache: 'no-store' })).json();
  const files = new Set(['./', 'index.html', ...PUBLIC_FILES]);
  const seen = new Set();
  const visit = (key) => {
    const chunk = manifest[key];
    if (!chunk || seen.has(key)) return;
    seen.add(key);
    files.add(chunk.file);
    for (const file of [...(chunk.css ?? []), ...(chunk.assets ?? [])]) files.add(file);
    for (const next of [...(chunk.imports ?? []), ...(chunk.dynamicImports ?? [])]) visit(next);
  };
  ENTRIES.forEach(visit);
  await cache.addAll([...files]);
}

self.addEventListener('install', (event) => {
  event.waitUntil(precache().then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => name.startsWith('inpage-agent-demo-') && name !== CACHE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

/** The response with the headers that isolate the page (the demo loads nothing from other origins, which COEP would need CORP or CORS for). */
function isolated(response) {
  if (!response || response.status === 0) return response;
  const headers = new Headers(response.headers);
  headers.set('Cross-Origin-Opener-Policy', 'same-origin');
  headers.set('Cross-Origin-Embedder-Policy', 'require-corp');
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/** An answer the server says not to keep. */
const notToKeep = (response) => /\b(no-store|private)\b/i.test(response.headers.get('Cache-Control') ?? '');

/** Offline: the file's own cached copy; for one of the demo's pages, that page whatever its query. */
async function cached(request, path) {
  const own = await caches.match(request, { cacheName: CACHE });
  if (own || !isPage(path)) return own;
  return caches.match(new URL(path || './', scope()).href, { cacheName: CACHE, ignoreSearch: true });
}

// Network first (so a new deploy shows), the cache when offline.
self.addEventListener('fetch', (event) => {
  const { request } = event;
  const path = request.method === 'GET' ? inScope(new URL(request.url)) : undefined;
  if (path === undefined || !isDemoFile(path)) return;
  event.respondWith(
    fetch(request)
      .then((response) => {
        if (response.ok && !notToKeep(response)) {
          const copy = response.clone();
          void caches.open(CACHE).then((cache) => cache.put(request, copy));
        }
        return isolated(response);
      })
      .catch(() => cached(request, path).then((found) => (found ? isolated(found) : Response.error()))),
  );
});
