// The demo page's dev server (`npm start`) and its static build (dist-demo/).
import { defineConfig } from 'vite';

export default defineConfig({
  server: { host: '127.0.0.1', port: 5173, strictPort: false },
  worker: { format: 'es' },
  build: { outDir: 'dist-demo', target: 'es2022' },
});
