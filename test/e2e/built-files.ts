/**
 * For end-to-end tests: the library files and the static demo, each built once per run, and
 * a small static server on 127.0.0.1 that can send any headers (e.g. a CSP)
 * and collect CSP violation reports.
 */
import { build } from 'vite';
import { createServer, type Server } from 'node:http';
import { readFileSync, existsSync, statSync } from 'node:fs';
import { extname, join, normalize, resolve } from 'node:path';
import { oncePerRun } from '../once-per-run';
// @ts-expect-error: a plain .mjs module without types
import { pageBuilds, workerBuilds } from '../../scripts/library-builds.mjs';

const repoRoot = resolve(import.meta.dirname, '../..');

let built: Promise<string> | undefined;
let demo: Promise<string> | undefined;

/** Builds dist files (ESM, IIFE, workers) once per test run (test/once-per-run.ts); resolves to the folder, read-only. */
export function builtLibrary(): Promise<string> {
  built ??= oncePerRun('library', async (dir) => {
    for (const config of [...pageBuilds(dir), ...workerBuilds(dir)]) {
      await build({ ...config, logLevel: 'silent', build: { ...config.build, sourcemap: false, minify: false } });
    }
  });
  return built;
}

/** Builds the static demo (`vite build`, vite.config.ts) once per test run; resolves to the folder, read-only. */
export function builtDemo(): Promise<string> {
  demo ??= oncePerRun('demo', async (dir) => {
    await build({ root: repoRoot, logLevel: 'silent', build: { outDir: dir, emptyOutDir: true } });
  });
  return demo;
}

const types: Record<string, string> = {
  '.js': 'text/javascript',
  '.html': 'text/html',
  '.json': 'application/json',
  '.css': 'text/css',
  '.wasm': 'application/wasm',
};

export interface StaticServer {
  url: string;
  reports: unknown[];
  close(): Promise<void>;
}

/** Serves `routes` (URL path → folder) with `headers` on every response; POSTs to /csp-report are collected. */
export async function serveStatic(
  routes: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<StaticServer> {
  const reports: unknown[] = [];
  const server: Server = createServer((request, response) => {
    const path = decodeURIComponent((request.url ?? '/').split('?')[0]!);
    if (request.method === 'POST' && path === '/csp-report') {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        reports.push(body);
        response.writeHead(204).end();
      });
      return;
    }
    const prefix = Object.keys(routes)
      .filter((route) => path.startsWith(route))
      .sort((a, b) => b.length - a.length)[0];
    const rest = path.slice((prefix ?? '').length);
    const file =
      prefix === undefined
        ? undefined
        : normalize(join(routes[prefix]!, rest === '' || rest.endsWith('/') ? `${rest}index.html` : rest));
    if (!file || !file.startsWith(normalize(routes[prefix!]!)) || !existsSync(file) || statSync(file).isDirectory()) {
      response.writeHead(404, headers).end('not found');
      return;
    }
    response
      .writeHead(200, { 'Content-Type': types[extname(file)] ?? 'application/octet-stream', ...headers })
      .end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    reports,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
