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
const CACHE = 'inpage-agent-demo-v2';
// Files of public/ that vite copies as they are, so its manifest does not list them.
const PUBLIC_FILES = ['favicon.svg', 'manifest.webmanifest', 'icon-192.png', 'icon-512.png'];

// The demo page and its engine, with everything they import; not the BFCL self-test (eval.html),
// whose benchmark data (megabytes) only its own visitors should download.
const ENTRIES = ['index.html', 'demo/engine/stand-in.ts'];

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

// Network first (so a new deploy shows), the cache when offline. Models go straight to the network:
// their engine keeps them in a cache of its own, and a second copy here would double hundreds of MB.
self.addEventListener('fetch', (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== location.origin || url.pathname.endsWith('.gguf')) return;
  event.respondWith(
    fetch(request)
      .then((response) => {
        if (response.ok) {
          const copy = response.clone();
          void caches.open(CACHE).then((cache) => cache.put(request, copy));
        }
        return isolated(response);
      })
      .catch(() =>
        caches.match(request, { ignoreSearch: true }).then((cached) => isolated(cached) ?? caches.match('index.html').then(isolated)),
      ),
  );
});
