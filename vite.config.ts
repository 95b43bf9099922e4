// The demo page's dev server (`npm start`) and its static build (dist-demo/).
import { defineConfig } from 'vite';
import { resolve } from 'node:path';
import { serveModels } from './scripts/model-files.mjs';

export default defineConfig({
  // GGUF models at /models/ from this machine's model cache (scripts/model-files.mjs), for the demo's llama.cpp choices.
  plugins: [serveModels()],
  server: { host: '127.0.0.1', port: 5173, strictPort: false },
  worker: { format: 'es' },
  // Relative URLs, so the static demo works from any folder of any host; the manifest lists the files the service worker caches.
  base: './',
  build: {
    outDir: 'dist-demo',
    target: 'es2022',
    manifest: true,
    chunkSizeWarningLimit: 8000,
    rollupOptions: {
      // The stand-in engine is a module the agent's worker imports by URL (model: { engine: 'module', url }),
      // so it is an entry of its own, with its default export kept and a name the page knows.
      input: {
        main: resolve(import.meta.dirname, 'index.html'),
        'stand-in': resolve(import.meta.dirname, 'demo/engine/stand-in.ts'),
      },
      preserveEntrySignatures: 'exports-only',
      output: {
        entryFileNames: (chunk) =>
          chunk.name === 'stand-in' ? 'assets/stand-in-engine.js' : 'assets/[name]-[hash].js',
      },
    },
  },
});
