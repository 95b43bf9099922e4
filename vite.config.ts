// The demo page's dev server (`npm start`) and its static build (dist-demo/).
import { defineConfig, type Connect, type Plugin } from 'vite';
import { resolve } from 'node:path';
import { sharedDataDir } from './scripts/shared-data.mjs';
import { serveModels } from './scripts/model-files.mjs';

/** Engine modules of the eval page, built under fixed names beside the page's chunks. */
const ENGINE_ENTRIES = new Set(['fenced-json-engine', 'native-tools-engine']);

/**
 * Every response of `npm start` and `vite preview` is cross-origin isolated (COOP + COEP), so llama.cpp may use
 * more than one thread (docs/threads.md). A middleware of its own, first, so that the
 * models and every plugin's answer carry the headers too, not only Vite's own files. The built demo on a static
 * host that sets no headers gets them from its service worker (public/sw.js).
 */
function crossOriginIsolation(): Plugin {
  const isolate = ({ middlewares }: { middlewares: Connect.Server }) =>
    void middlewares.use((_request, response, next) => {
      response.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
      response.setHeader('Cross-Origin-Embedder-Policy', 'require-corp');
      next();
    });
  return { name: 'inpage-agent:cross-origin-isolation', configureServer: isolate, configurePreviewServer: isolate };
}

/** The models at /models/ in `vite preview` as in `npm start`. */
function serveModelsEverywhere(): Plugin {
  const plugin = serveModels();
  return { ...plugin, configurePreviewServer: plugin.configureServer } as Plugin;
}

export default defineConfig({
  // GGUF models at /models/ from this machine's model cache (scripts/model-files.mjs), for the demo's llama.cpp choices.
  plugins: [crossOriginIsolation(), serveModelsEverywhere()],
  server: { host: '127.0.0.1', port: 5173, strictPort: false, fs: { allow: ['.', sharedDataDir] } },
  // Pages that read public data kept outside the repository (../shared/data, e.g. BFCL for eval.html) import it as '@shared-data/…'.
  resolve: { alias: { '@shared-data': sharedDataDir } },
  worker: { format: 'es' },
  // Relative URLs, so the static demo works from any folder of any host; the manifest lists the files the service worker caches.
  base: './',
  build: {
    outDir: 'dist-demo',
    target: 'es2022',
    manifest: true,
    chunkSizeWarningLimit: 8000,
    rollupOptions: {
      // The stand-in engine and the eval's arm engines are modules the agent's worker imports by URL
      // (model: { engine: 'module', url }), so each is an entry of its own, with its default export kept
      // and a name the page knows (eval/arms/engine-url.ts).
      input: {
        main: resolve(import.meta.dirname, 'index.html'),
        eval: resolve(import.meta.dirname, 'eval.html'),
        'stand-in': resolve(import.meta.dirname, 'demo/engine/stand-in.ts'),
        'fenced-json-engine': resolve(import.meta.dirname, 'eval/arms/fenced-json-engine.ts'),
        'native-tools-engine': resolve(import.meta.dirname, 'eval/arms/native-tools-engine.ts'),
      },
      preserveEntrySignatures: 'exports-only',
      output: {
        entryFileNames: (chunk) =>
          chunk.name === 'stand-in'
            ? 'assets/stand-in-engine.js'
            : ENGINE_ENTRIES.has(chunk.name)
              ? `assets/${chunk.name}.js`
              : 'assets/[name]-[hash].js',
      },
    },
  },
});
