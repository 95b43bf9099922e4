// The demo page's dev server (`npm start`) and its static build (dist-demo/).
import { defineConfig } from 'vite';

export default defineConfig({
  server: { host: '127.0.0.1', port: 5173, strictPort: false },
  worker: { format: 'es' },
  // Relative URLs, so the static demo works from any folder of any host; the manifest lists the files the service worker caches.
  base: './',
  build: { outDir: 'dist-demo', target: 'es2022', manifest: true, chunkSizeWarningLimit: 8000 },
});
