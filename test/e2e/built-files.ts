/**
 * For end-to-end tests: the library files built once into a temp folder, and
 * a small static server on 127.0.0.1 that can send any headers (e.g. a CSP)
 * and collect CSP violation reports.
 */
import { build } from 'vite';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, existsSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
// @ts-expect-error: a plain .mjs module without types
import { pageBuilds, workerBuilds } from '../../scripts/library-builds.mjs';

let built: Promise<string> | undefined;

/** Builds dist files (ESM, IIFE, workers) once per test process; resolves to the folder. */
export function builtLibrary(): Promise<string> {
  built ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'inpage-dist-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    for (const config of [...pageBuilds(dir), ...workerBuilds(dir)]) {
      await build({ ...config, logLevel: 'silent', build: { ...config.build, sourcemap: false, minify: false } });
    }
    return dir;
  })();
  return built;
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
