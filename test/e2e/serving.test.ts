// Each serving recipe of docs/serving.md, pasted as written into a fresh app that installed the package from
// its tarball, served by that server, in Chromium: the page is cross-origin isolated and a GGUF model (the
// random-weight tiny one of scripts/tiny-gguf.mjs: the load is what is tested) loads on more than one thread.
// The same page from a server without the headers is the control: not isolated, one thread. For the service
// worker of a static host without headers, also what it must never do: keep an answer, answer a request with
// another's, or touch a response that is not the site's own page or worker.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as netServer } from 'node:net';
import { userInfo } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromiumArgs, findChromium } from '../../scripts/chromium.mjs';
import { tinyModelPath } from '../../scripts/model-files.mjs';
import { serveStatic, type StaticServer } from './built-files';
import { docBlock, freshApp } from './packaging-apps';

const DOC = 'docs/serving.md';
/** What a recipe's server adds to the app besides the package (and the bundlers the packaging app has). */
const SERVERS = [
  'vite@^8.3.8',
  'express@^5.3.0',
  'webpack@^5.101.0',
  'webpack-cli@^7.0.0',
  'webpack-dev-server@^6.1.0',
  'wrangler@^4',
];
/** A server to start and a model to load, on a machine other test runs share: minutes, not seconds. */
const RECIPE_MS = 360_000;
const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((path) => existsSync(path));

let browser: Browser;
let app: string;
/** The page every recipe serves: the script-tag build beside it, a model under models/. */
let site: string;
const stops: (() => Promise<unknown> | unknown)[] = [];

/** What the page logs once its agent has loaded the model. */
interface Loaded {
  isolated: boolean;
  threads: number;
  engine: string;
}

const APP_JS = `// Loads a GGUF on llama.cpp, then says whether the page is isolated and on how many threads the model runs.
const { createAgent } = window.InpageAgent;
const url = new URL(location.href).searchParams.get('model') ?? '/models/tiny.gguf';
// Two threads asked for: what the page's isolation allows is tested, not the count the engine would measure.
createAgent({ model: { engine: 'wllama', url, threads: 2 }, storage: 'memory' }).then((agent) => {
  const { threads, engine } = agent.info.model;
  console.log(JSON.stringify({ isolated: crossOriginIsolated, threads, engine }));
});
`;

const MAIN_JS = `import { createAgent } from 'inpage-agent';

const agent = await createAgent({ model: { engine: 'wllama', url: '/models/tiny.gguf', threads: 2 }, storage: 'memory' });
const { threads, engine } = agent.info.model;
console.log(JSON.stringify({ isolated: crossOriginIsolated, threads, engine }));
`;

const page = (
  head = '',
  script = '<script src="vendor/inpage-agent.iife.js"></script><script src="app.js"></script>',
) =>
  `<!doctype html>\n<html lang="en">\n  <head><meta charset="utf-8" /><title>served</title><link rel="icon" href="data:," />${head}</head>\n  <body>${script}</body>\n</html>\n`;

beforeAll(async () => {
  app = await freshApp('serving', SERVERS);
  site = join(app, 'site');
  const dist = join(app, 'node_modules/inpage-agent/dist');
  mkdirSync(join(site, 'vendor'), { recursive: true });
  mkdirSync(join(site, 'models'), { recursive: true });
  for (const file of ['inpage-agent.iife.js', 'inpage-agent.worker.js', 'chunks'])
    cpSync(join(dist, file), join(site, 'vendor', file), { recursive: true });
  cpSync(tinyModelPath('qwen2_5'), join(site, 'models/tiny.gguf'));
  writeFileSync(join(site, 'app.js'), APP_JS);
  writeFileSync(join(site, 'index.html'), page());
  browser = await chromium.launch({ executablePath: findChromium(), args: chromiumArgs });
}, 600_000);

afterAll(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
  await browser?.close();
});

/** The site copied for one recipe, with `extra` files written into the copy. */
function siteFor(name: string, extra: Record<string, string> = {}): string {
  const dir = join(app, `site-${name}`);
  cpSync(site, dir, { recursive: true });
  for (const [file, text] of Object.entries(extra)) writeFileSync(join(dir, file), text);
  return dir;
}

/** A free port on 127.0.0.1, for servers that take one on their command line. */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = netServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Starts a server's program; resolves once `url` answers, and stops it (its whole process group) after the file's tests. */
async function startProgram(command: string, args: string[], url: string, env: Record<string, string> = {}) {
  const child: ChildProcess = spawn(command, args, {
    cwd: app,
    env: { ...process.env, ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  stops.push(() => {
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      // Gone already.
    }
  });
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${command} ${args.join(' ')} exited:\n${output}`);
    const answered = await fetch(url).then(
      (response) => response.ok,
      () => false,
    );
    if (answered) return { output: () => output };
    if (Date.now() > deadline) throw new Error(`${url} did not answer within 120 s:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Opens `url` in a fresh context and waits for the page's report that its model loaded (isolated, when `until`). */
async function loaded(
  url: string,
  context?: BrowserContext,
  until: (report: Loaded) => boolean = () => true,
): Promise<Loaded & { logs: string[]; errors: string[] }> {
  const own = context ?? (await browser.newContext());
  const tab = await own.newPage();
  const logs: string[] = [];
  const errors: string[] = [];
  let report!: (value: Loaded) => void;
  const reported = new Promise<Loaded>((resolve) => (report = resolve));
  tab.on('console', (message) => {
    logs.push(message.text());
    if (message.type() !== 'log' || !message.text().startsWith('{"isolated"')) return;
    const said = JSON.parse(message.text()) as Loaded;
    if (until(said)) report(said);
  });
  tab.on('pageerror', (error) => errors.push(error.message));
  try {
    await tab.goto(url);
    const result = await Promise.race([
      reported,
      new Promise<never>((_, reject) =>
        setTimeout(
          () => reject(new Error(`${url}: no report within 180 s; ${JSON.stringify({ logs, errors })}`)),
          180_000,
        ),
      ),
    ]);
    return { ...result, logs, errors };
  } finally {
    if (!context) await own.close();
  }
}

/** What an isolated page that asks for two threads gets on this machine: two, or its cores if fewer. */
async function isolatedThreads(): Promise<number> {
  const context = await browser.newContext();
  const cores = await (await context.newPage()).evaluate(() => navigator.hardwareConcurrency);
  await context.close();
  return Math.min(cores, 2);
}

function expectIsolatedLoad(result: Loaded & { errors: string[] }, threads: number): void {
  expect(result.errors).toEqual([]);
  expect(result).toMatchObject({ isolated: true, threads, engine: 'wllama' });
  expect(threads).toBeGreaterThan(1);
}

describe(
  'each recipe of docs/serving.md: the page is cross-origin isolated and the model loads on its threads',
  { timeout: RECIPE_MS },
  () => {
    test('the control: a server without the headers gives a page that is not isolated, and one thread', async () => {
      const server = await serveStatic({ '/': siteFor('plain') });
      stops.push(() => server.close());
      const result = await loaded(`${server.url}/`);
      expect(result.errors).toEqual([]);
      expect(result).toMatchObject({ isolated: false, threads: 1, engine: 'wllama' });
    });

    test('Vite: server.headers', async () => {
      const root = siteFor('vite');
      writeFileSync(join(app, 'vite.config.js'), docBlock(DOC, 'Vite', 'js', 'vite.config.js'));
      const vite = await import(pathToFileURL(join(app, 'node_modules/vite/dist/node/index.js')).href);
      const server = await vite.createServer({
        root,
        configFile: join(app, 'vite.config.js'),
        logLevel: 'error',
        server: { host: '127.0.0.1', port: 0 },
      });
      await server.listen();
      stops.push(() => server.close());
      expectIsolatedLoad(await loaded(server.resolvedUrls.local[0]), await isolatedThreads());
    });

    test('webpack-dev-server: devServer.headers, the model files under static', async () => {
      // The module example built by webpack (the page loads main.js), the model in public/.
      mkdirSync(join(app, 'src'), { recursive: true });
      writeFileSync(join(app, 'src/main.js'), MAIN_JS);
      mkdirSync(join(app, 'public/models'), { recursive: true });
      cpSync(join(site, 'models/tiny.gguf'), join(app, 'public/models/tiny.gguf'));
      writeFileSync(join(app, 'public/index.html'), page('', '<script src="main.js"></script>'));
      writeFileSync(join(app, 'webpack.config.js'), docBlock(DOC, 'webpack-dev-server', 'js', 'devServer'));
      const port = await freePort();
      await startProgram(
        'node',
        ['node_modules/webpack-cli/bin/cli.js', 'serve', '--host', '127.0.0.1', '--port', String(port)],
        `http://127.0.0.1:${port}/main.js`,
      );
      expectIsolatedLoad(await loaded(`http://127.0.0.1:${port}/`), await isolatedThreads());
    });

    test('Express: a middleware before express.static', async () => {
      cpSync(siteFor('express'), join(app, 'dist'), { recursive: true });
      writeFileSync(join(app, 'server.js'), docBlock(DOC, 'Express', 'js', 'express.static'));
      const port = await freePort();
      await startProgram('node', ['server.js'], `http://127.0.0.1:${port}/`, { PORT: String(port) });
      expectIsolatedLoad(await loaded(`http://127.0.0.1:${port}/`), await isolatedThreads());
    });

    test('Netlify and Cloudflare Pages: a _headers file, served by Cloudflare’s own local server (wrangler pages dev); the model from another origin, with CORS', async () => {
      const root = siteFor('headers-file', {
        _headers: docBlock(DOC, 'Netlify and Cloudflare Pages', '', 'Cross-Origin'),
      });
      const port = await freePort();
      await startProgram(
        'node',
        [
          'node_modules/wrangler/bin/wrangler.js',
          'pages',
          'dev',
          root,
          '--ip',
          '127.0.0.1',
          '--port',
          String(port),
          // What the workerd it ships supports; a newer date is refused (this checkout is dated by its clock).
          '--compatibility-date',
          '2025-01-01',
        ],
        `http://127.0.0.1:${port}/`,
        { WRANGLER_SEND_METRICS: 'false', CI: 'true' },
      );
      // wrangler pages dev breaks off a 25 MB download in Chromium (net::ERR_INCOMPLETE_CHUNKED_ENCODING; curl gets it
      // whole): the model comes from another origin, with CORS, which an isolated page may fetch.
      const models = await serveStatic({ '/': join(site, 'models') }, { 'Access-Control-Allow-Origin': '*' });
      stops.push(() => models.close());
      const model = encodeURIComponent(`${models.url}/tiny.gguf`);
      expectIsolatedLoad(await loaded(`http://127.0.0.1:${port}/?model=${model}`), await isolatedThreads());
    });

    // Skipped where nginx is not installed (Debian: apt-get install nginx-light; .ci/run installs it).
    test.skipIf(!NGINX)('nginx: add_header in the server block', async () => {
      const root = siteFor('nginx');
      const port = await freePort();
      const block = docBlock(DOC, 'nginx', 'nginx', 'add_header')
        .replace('listen 8080;', `listen 127.0.0.1:${port};`)
        .replace('root /srv/site;', `root ${root};`);
      const prefix = join(app, 'nginx');
      mkdirSync(join(prefix, 'logs'), { recursive: true });
      writeFileSync(
        join(prefix, 'nginx.conf'),
        [
          'daemon off;',
          // Run as root (a test machine), nginx's workers would be www-data, who cannot read a temporary folder.
          ...(process.getuid?.() === 0 ? [`user ${userInfo().username};`] : []),
          'worker_processes 1;',
          `pid ${join(prefix, 'nginx.pid')};`,
          `error_log ${join(prefix, 'logs/error.log')};`,
          'events {}',
          'http {',
          '  include /etc/nginx/mime.types;',
          `  access_log ${join(prefix, 'logs/access.log')};`,
          ...['client_body_temp_path', 'proxy_temp_path', 'fastcgi_temp_path', 'uwsgi_temp_path', 'scgi_temp_path'].map(
            (directive) => `  ${directive} ${join(prefix, directive)};`,
          ),
          block,
          '}',
        ].join('\n'),
      );
      await startProgram(NGINX!, ['-p', prefix, '-c', join(prefix, 'nginx.conf')], `http://127.0.0.1:${port}/`);
      expectIsolatedLoad(await loaded(`http://127.0.0.1:${port}/`), await isolatedThreads());
    });
  },
);

describe('a static host without headers: inpage-agent-isolation.js', { timeout: RECIPE_MS }, () => {
  /** A static host that sends no header of ours; /query answers no-store with its query and how often it was asked. */
  let host: { url: string; hits: Map<string, number>; close(): Promise<void> };
  /** Another origin, with CORS: what it sends must reach the page untouched. */
  let other: StaticServer;

  beforeAll(async () => {
    const root = siteFor('static', {
      'index.html': page(docBlock(DOC, 'A static host that sends no headers', 'html', 'inpage-agent-isolation.js')),
    });
    cpSync(
      join(app, 'node_modules/inpage-agent/dist/inpage-agent-isolation.js'),
      join(root, 'inpage-agent-isolation.js'),
    );
    writeFileSync(join(root, 'data.json'), '{"from":"the site"}');
    host = await plainHost(root);
    stops.push(() => host.close());
    other = await serveStatic(
      { '/': root },
      { 'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': '*', 'X-From': 'the other origin' },
    );
    stops.push(() => other.close());
  });

  test('the first visit reloads once and is isolated from then on; the model loads on its threads; a second visit needs no reload', async () => {
    const context = await browser.newContext();
    try {
      const navigations: string[] = [];
      context.on('page', (tab) =>
        tab.on('framenavigated', (frame) => frame === tab.mainFrame() && navigations.push(frame.url())),
      );
      // The first load, not isolated yet, may load the model on one thread before the reload: its report is not the page's.
      const result = await loaded(`${host.url}/`, context, (report) => report.isolated);
      expectIsolatedLoad(result, await isolatedThreads());
      expect(navigations).toEqual([`${host.url}/`, `${host.url}/`]);
      const again = await loaded(`${host.url}/`, context);
      expectIsolatedLoad(again, await isolatedThreads());
      expect(navigations).toHaveLength(3);
    } finally {
      await context.close();
    }
  });

  test('it keeps nothing and answers each request with its own answer: no-store pages come from the server every time, each query its own', async () => {
    const context = await browser.newContext();
    try {
      await loaded(`${host.url}/`, context, (report) => report.isolated);
      const tab = context.pages()[0]!;
      const visit = async (query: string) => {
        await tab.goto(`${host.url}/query?${query}`);
        return tab.evaluate(() => ({ text: document.body.textContent, isolated: crossOriginIsolated }));
      };
      expect(await visit('who=ana')).toEqual({ text: 'who=ana #1', isolated: true });
      expect(await visit('who=bob')).toEqual({ text: 'who=bob #1', isolated: true });
      expect(await visit('who=ana')).toEqual({ text: 'who=ana #2', isolated: true });
      expect(host.hits).toEqual(
        new Map([
          ['who=ana', 2],
          ['who=bob', 1],
        ]),
      );
      // No cache holds those pages (the one cache there is the runtime's, of the model's files).
      expect(await tab.evaluate(async (url) => Boolean(await caches.match(`${url}/query?who=ana`)), host.url)).toBe(
        false,
      );
      expect(await tab.evaluate(() => caches.keys())).toEqual(['inpage-agent-gguf']);
    } finally {
      await context.close();
    }
  });

  test('it touches only the site’s own pages and workers: another origin’s response and the site’s other files reach the page as they were sent', async () => {
    const context = await browser.newContext();
    try {
      await loaded(`${host.url}/`, context, (report) => report.isolated);
      const tab = context.pages()[0]!;
      const headers = (url: string) =>
        tab.evaluate(async (address) => {
          const response = await fetch(address);
          return {
            coep: response.headers.get('cross-origin-embedder-policy'),
            coop: response.headers.get('cross-origin-opener-policy'),
            corp: response.headers.get('cross-origin-resource-policy'),
            from: response.headers.get('x-from'),
          };
        }, url);
      // The site's own data file: not a page, not a worker, so not answered by the worker at all.
      expect(await headers(`${host.url}/data.json`)).toEqual({ coep: null, coop: null, corp: null, from: null });
      // Another origin's answer, exactly as it sent it (no CORP added to make it loadable everywhere).
      expect(await headers(`${other.url}/data.json`)).toEqual({
        coep: null,
        coop: null,
        corp: null,
        from: 'the other origin',
      });
      // The page itself and the agent's worker script do carry them (the page is isolated, its worker runs).
      expect(await tab.evaluate(() => crossOriginIsolated)).toBe(true);
    } finally {
      await context.close();
    }
  });
});

/** A static host of `root` that sends no header of ours, with /query for the service worker's tests. */
async function plainHost(root: string) {
  const hits = new Map<string, number>();
  const types: Record<string, string> = {
    '.html': 'text/html',
    '.js': 'text/javascript',
    '.json': 'application/json',
    '.wasm': 'application/wasm',
  };
  const server: Server = createServer((request, response) => {
    const [path, query = ''] = (request.url ?? '/').split('?') as [string, string?];
    if (path === '/query') {
      const count = (hits.get(query) ?? 0) + 1;
      hits.set(query, count);
      response
        .writeHead(200, { 'Content-Type': 'text/html', 'Cache-Control': 'no-store, private' })
        .end(`<!doctype html><body>${query} #${count}</body>`);
      return;
    }
    const file = normalize(join(root, path.endsWith('/') ? `${path}index.html` : decodeURIComponent(path)));
    if (!file.startsWith(root) || !existsSync(file)) return void response.writeHead(404).end('not found');
    response
      .writeHead(200, { 'Content-Type': types[extname(file)] ?? 'application/octet-stream' })
      .end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    // A loopback address is a secure context over http, as a service worker needs.
    url: `http://127.0.0.1:${port}`,
    hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
