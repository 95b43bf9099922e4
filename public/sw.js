// The demo's service worker: after one visit, the app shell and every built file come from
// the cache, so the page and its scripted tour run with the network off. Model weights are
// cached by web-llm itself. Files are listed by vite's build manifest (the demo-mode engine module
// is an entry there), so nothing is guessed.
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

// Network first (so a new deploy shows), the cache when offline.
self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET' || new URL(request.url).origin !== location.origin) return;
  event.respondWith(
    fetch(request)
      .then((response) => {
        if (response.ok) {
          const copy = response.clone();
          void caches.open(CACHE).then((cache) => cache.put(request, copy));
        }
        return response;
      })
      .catch(() => caches.match(request, { ignoreSearch: true }).then((cached) => cached ?? caches.match('index.html'))),
  );
});
