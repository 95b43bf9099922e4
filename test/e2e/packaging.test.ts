import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { cpSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { serveStatic, type StaticServer } from './built-files';
// @ts-expect-error: a plain .mjs module without types
import { webllmMarkersIn } from '../../scripts/library-builds.mjs';
import {
  inApp,
  packagedApp,
  repoRoot,
  page,
  docBlock,
  FIRST_EXAMPLE,
  runPage,
  STRICT_CSP,
  type PackagedApp,
  type PageRun,
} from './packaging-apps';
import { chromiumArgs as quiet, findChromium } from '../../scripts/chromium.mjs';

/**
 * The package as a web developer meets it: packed, installed from the tarball
 * into a fresh app, the README's module example pasted in unchanged, and run
 * in Chromium from each bundler's output. Bundlers run as their CLIs do.
 */
let browser: Browser;
let app: PackagedApp;
const servers: StaticServer[] = [];

/** The bundlers' builds of the app, each run when its test asks for it; each resolves to its output folder. */
let build: ReturnType<typeof bundlers>;

beforeAll(async () => {
  app = await packagedApp();
  build = bundlers(app.dir);
  browser = await chromium.launch({ executablePath: findChromium(), args: quiet });
}, 240_000);

/** The esbuild command of docs/install.md, as arguments, and its worker entry point (its one line). */
function esbuildCommand() {
  const [, ...args] = docBlock('docs/install.md', 'Bundlers', 'sh', 'esbuild').trim().split(/\s+/);
  const entry = args.find((arg) => arg.startsWith('inpage-agent.worker='))!;
  return { args, entry, outdir: args.find((arg) => arg.startsWith('--outdir='))!.slice('--outdir='.length) };
}

function bundlers(dir: string) {
  const vite = (root: string, outDir: string) =>
    inApp(dir, 'node', ['node_modules/vite/bin/vite.js', 'build', root, '--outDir', outDir, '--logLevel', 'warn']);
  return {
    vite: async () => {
      await vite('.', 'out-vite');
      return join(dir, 'out-vite');
    },
    viteLean: async () => {
      // Another root in the same app (node_modules is found above it): the vite.config.js of docs/install.md, the same example.
      mkdirSync(join(dir, 'lean/src'), { recursive: true });
      writeFileSync(join(dir, 'lean/vite.config.js'), docBlock('docs/install.md', 'Bundlers', 'js', 'vite.config.js'));
      writeFileSync(join(dir, 'lean/index.html'), page('/src/main.js'));
      cpSync(join(dir, 'src/main.js'), join(dir, 'lean/src/main.js'));
      await vite('lean', 'out');
      return join(dir, 'lean/out');
    },
    webpack: async () => {
      // A second page: an agent whose engine is a module of the page's own (docs/models-and-engines.md, "Your own engine").
      writeFileSync(join(dir, 'src/engine-page.js'), ENGINE_PAGE);
      writeFileSync(
        join(dir, 'webpack.config.js'),
        [
          'export default {',
          "  mode: 'production',",
          "  entry: { main: './src/main.js', engine: './src/engine-page.js' },",
          "  output: { path: new URL('./out-webpack', import.meta.url).pathname, clean: true },",
          // Terser takes a minute over web-llm's 6 MB on a 2-core machine; minifying is not what this test is about.
          '  optimization: { minimize: false },',
          '};',
        ].join('\n'),
      );
      await inApp(dir, 'node', ['node_modules/webpack-cli/bin/cli.js']);
      return join(dir, 'out-webpack');
    },
    /** With `withLine: false`, what a developer tries first: the docs' esbuild command without its worker entry point. */
    esbuild: async ({ withLine }: { withLine: boolean }) => {
      const { args, entry, outdir } = esbuildCommand();
      const out = withLine ? outdir : 'out-esbuild-alone';
      const used = withLine
        ? args
        : args.filter((arg) => arg !== entry).map((arg) => (arg.startsWith('--outdir=') ? `--outdir=${out}` : arg));
      await inApp(dir, 'node_modules/.bin/esbuild', used);
      return join(dir, out);
    },
  };
}

afterAll(async () => {
  await browser?.close();
  await Promise.all(servers.map((server) => server.close()));
});

/** Serves a build folder the way a static host would, under the strict policy of docs/install.md. */
async function serve(folder: string, headers: Record<string, string> = { 'Content-Security-Policy': STRICT_CSP }) {
  const server = await serveStatic({ '/': folder }, headers);
  servers.push(server);
  return server;
}

function expectTheExampleRan(run: PageRun) {
  expect(run.errors).toEqual([]);
  expect(run.failed).toEqual([]);
  expect(run.logs.at(-1)).toBe('Added milk.');
  expect(run.items).toEqual(['milk']);
}

/** A page of the app that defines its tool with the app's own zod, and calls it once wrongly, once rightly. */
const OWN_ZOD_APP = `import { z } from 'zod';
import { createAgent, defineTool } from 'inpage-agent';

const addTodo = defineTool({
  name: 'add_todo',
  description: 'Add an item to the to-do list on this page.',
  parameters: z.object({ text: z.string().min(1) }),
  execute: ({ text }) => {
    const item = document.createElement('li');
    item.textContent = text;
    document.querySelector('#todos').append(item);
    return { added: text };
  },
});
const agent = await createAgent({
  model: {
    engine: 'scripted',
    turns: [
      { toolCalls: [{ name: 'add_todo', args: { text: 42 } }] },
      { toolCalls: [{ name: 'add_todo', args: { text: 'milk' } }] },
      { text: 'Added milk.' },
    ],
  },
  tools: [addTodo],
  storage: 'memory',
});
const { text, events } = await agent.send('Remember to buy milk');
const answers = events.flatMap((event) => (event.content?.role === 'tool' ? event.content.parts : []));
console.log(JSON.stringify({
  answers: answers.map((part) => part.functionResponse.error ?? part.functionResponse.response),
  jitless: z.config().jitless,
}));
console.log(text);
`;

/** A page whose agent runs the echo engine of docs/models-and-engines.md, a module the worker imports from the page's origin. */
const ENGINE_PAGE = `import { createAgent, defineTool, z } from 'inpage-agent';

const addTodo = defineTool({
  name: 'add_todo',
  description: 'Add an item to the to-do list on this page.',
  parameters: z.object({ text: z.string().min(1) }),
  execute: ({ text }) => {
    const item = document.createElement('li');
    item.textContent = text;
    document.querySelector('#todos').append(item);
    return { id: text };
  },
});
const agent = await createAgent({
  model: { engine: 'module', url: 'engines/echo-engine.js', options: { greeting: 'Echo' } },
  tools: [addTodo],
  storage: 'memory',
});
const { text } = await agent.send('add buy milk');
console.log(text);
`;

/** Where the package's web-llm chunk sits, beside its worker. */
const WEBLLM_CHUNK = (base: string) => `${base}/chunks/webllm-engine.js`;

/** The bytes of web-llm's code the page fetched; every script's body must have been read to say so. */
function webllmBytes(run: PageRun): number {
  const unread = run.fetched.filter((response) => response.bytes === undefined && /\.m?js(\?|$)/.test(response.url));
  if (unread.length) throw new Error(`Could not read what these scripts held: ${unread.map((r) => r.url).join(', ')}`);
  return run.fetched.filter((response) => response.webllm).reduce((sum, response) => sum + response.bytes!, 0);
}

describe('the packed tarball', () => {
  test("holds the license, the built files and their types, and no source map, demo file or test file, in at most 3 MB besides llama.cpp's wasm", () => {
    const paths = app.pack.files.map((file) => file.path);
    expect(paths).toEqual(expect.arrayContaining(['LICENSE', 'README.md', 'package.json']));
    const manifest = JSON.parse(readFileSync(join(app.dir, 'node_modules/inpage-agent/package.json'), 'utf8'));
    for (const [entry, target] of Object.entries(manifest.exports as Record<string, string | Record<string, string>>)) {
      for (const file of typeof target === 'string' ? [target] : Object.values(target)) {
        expect(paths, `exports["${entry}"] → ${file}`).toContain(file.replace(/^\.\//, ''));
      }
    }
    expect(paths.filter((path) => /\.map$|sw\.js$|demo|test|\.ts$/.test(path) && !path.endsWith('.d.ts'))).toEqual([]);
    // llama.cpp in WebAssembly (the wllama engine's chunks/wllama.wasm, 8.8 MB, about 2.4 MB compressed) is the engine
    // itself, as the web-llm chunk is web-llm's: the budget holds for everything else.
    const wasm = gzipSync(readFileSync(join(app.dir, 'node_modules/inpage-agent/dist/chunks/wllama.wasm'))).length;
    expect(app.pack.size - wasm).toBeLessThanOrEqual(3 * 1024 * 1024);
    expect(app.installLog).not.toMatch(/EBADENGINE.*inpage-agent|inpage-agent.*EBADENGINE/);
  });

  test("its types serve a TypeScript app, with bundler and with Node's own (nodenext) module resolution", async () => {
    writeFileSync(
      join(app.dir, 'types-check.ts'),
      `import { createAgent, defineTool, z, AgentError, type AgentEvent, type AgentOptions } from 'inpage-agent';
import { acceptContentScriptTools } from 'inpage-agent/extension';
import { createAgent as fromBundle } from 'inpage-agent/bundle';
import { InpageAgentChat, defaultStrings } from 'inpage-agent/chat';

const tool = defineTool({ name: 'noop', description: 'Does nothing.', parameters: z.object({ n: z.number() }), execute: ({ n }) => n + 1 });
const options: AgentOptions = { model: { engine: 'scripted', turns: [{ text: 'hi' }] }, tools: [tool], workerUrl: '/w.js', sharedWorkerUrl: '/s.js' };
export async function start(): Promise<AgentEvent[]> {
  const agent = await createAgent(options);
  const same: typeof createAgent = fromBundle;
  void same;
  void acceptContentScriptTools;
  const error: AgentError = new AgentError('invalid-options', 'never thrown');
  void error;
  const { events, calls } = await agent.send('hello');
  // The chat element is typed, as the DOM knows it too.
  const chat: InpageAgentChat = document.createElement('inpage-agent-chat');
  chat.strings = { send: defaultStrings.send, working: { starting: 'Loading' } };
  chat.agent = agent;
  for (const call of calls) if (call.outcome === 'refused') void call.refusedBy;
  for (const event of events) if (event.type === 'tool') void event.content.parts;
  return events;
}
// @ts-expect-error: defineTool refuses a tool without parameters
defineTool({ name: 'broken', description: 'No parameters.' });
`,
    );
    const tsc = join(repoRoot, 'node_modules/.bin/tsc');
    const common = [
      '--noEmit',
      '--strict',
      '--skipLibCheck',
      'false',
      '--lib',
      'es2022,dom',
      '--types',
      '',
      'types-check.ts',
    ];
    await inApp(app.dir, tsc, [...common, '--module', 'esnext', '--moduleResolution', 'bundler']);
    await inApp(app.dir, tsc, [...common, '--module', 'nodenext', '--moduleResolution', 'nodenext']);
  });
});

describe("the README's module example in a fresh app, installed from the tarball", () => {
  describe('from the Vite dev server', () => {
    let url: string;
    let close: () => Promise<void>;

    beforeAll(async () => {
      // More pages of the same app: one defines its tool with the app's own zod; two are blocks of docs/.
      const pages = {
        'own-zod': OWN_ZOD_APP,
        toolkit: docBlock('docs/tools-and-approvals.md', 'The toolkit graph', 'js', 'toolkit'),
        hosting: docBlock('docs/models-and-engines.md', 'Host the model files yourself (offline)', 'js', 'appConfig'),
      };
      for (const [name, code] of Object.entries(pages)) {
        mkdirSync(join(app.dir, name), { recursive: true });
        writeFileSync(join(app.dir, name, 'index.html'), page('./main.js'));
        writeFileSync(join(app.dir, name, 'main.js'), code);
      }
      // What the hosting block points at, served by Vite from public/: a real config, and a stand-in library.
      const model = join(app.dir, 'public/models/Qwen2.5-0.5B-Instruct-q4f32_1-MLC/resolve/main');
      mkdirSync(model, { recursive: true });
      cpSync(
        join(repoRoot, 'test/model/fixtures/tiny-model/resolve/main/mlc-chat-config.json'),
        join(model, 'mlc-chat-config.json'),
      );
      cpSync(
        join(repoRoot, 'test/model/fixtures/empty-lib.wasm'),
        join(app.dir, 'public/models/Qwen2-0.5B-Instruct-q4f32_1_cs1k-webgpu.wasm'),
      );
      // The app's own Vite (node_modules/vite), started as `vite` starts it.
      const vite = await import(pathToFileURL(join(app.dir, 'node_modules/vite/dist/node/index.js')).href);
      const server = await vite.createServer({
        root: app.dir,
        configFile: false,
        logLevel: 'error',
        server: { host: '127.0.0.1', port: 0 },
      });
      await server.listen();
      url = server.resolvedUrls.local[0];
      close = () => server.close();
    });

    afterAll(async () => {
      await close?.();
    });

    test('runs the module example unchanged; no request fails and web-llm is never fetched', async () => {
      const run = await runPage(browser, url);
      expectTheExampleRan(run);
      // The worker came from the package, not from a missing copy in Vite's pre-bundled deps.
      expect(run.fetched.some((response) => response.url.includes('/inpage-agent/dist/inpage-agent.worker.js'))).toBe(
        true,
      );
      expect(webllmBytes(run)).toBe(0);
    });

    test("defineTool takes a schema made with the app's own zod 4: a bad call is refused naming the field, a good one runs, and app and package share one zod", async () => {
      const run = await runPage(browser, `${url}own-zod/`);
      expectTheExampleRan(run);
      const { answers, jitless } = JSON.parse(run.logs.at(-2)!);
      expect(answers[0]).toMatch(/text/);
      expect(answers[1]).toEqual({ added: 'milk' });
      // inpage-agent set jitless on the zod it imports: the app's zod has it, so they are one module.
      expect(jitless).toBe(true);
    });

    test('the toolkit example of docs/ offers each step the tools of its current actions, as it says', async () => {
      const run = await runPage(browser, `${url}toolkit/`, (log) => log.includes('checkout'));
      expect(run.errors).toEqual([]);
      expect(run.failed).toEqual([]);
      expect(run.logs).toEqual([
        'search_products add_to_cart open_help',
        'search_products add_to_cart open_help',
        'search_products add_to_cart checkout open_help',
      ]);
    });

    test("the self-hosting example of docs/ fetches the model's files from the page's origin only, and a broken library is named in model-lib-invalid", async () => {
      // Chromium's CPU WebGPU adapter, so that loading gets past the GPU check to the files.
      const webgpu = await chromium.launch({
        executablePath: findChromium(),
        args: [...quiet, '--enable-unsafe-webgpu'],
      });
      try {
        const run = await runPage(webgpu, `${url}hosting/`, () => false);
        const origin = new URL(url).origin;
        expect(run.errors).toHaveLength(1);
        expect(run.errors[0]).toContain(
          `AgentError: The model library ${origin}/models/Qwen2-0.5B-Instruct-q4f32_1_cs1k-webgpu.wasm is not a valid WebAssembly module`,
        );
        expect(run.fetched.map((response) => response.url)).toContain(
          `${origin}/models/Qwen2.5-0.5B-Instruct-q4f32_1-MLC/resolve/main/mlc-chat-config.json`,
        );
        expect(run.fetched.filter((response) => !response.url.startsWith(origin))).toEqual([]);
        expect(run.failed).toEqual([]);
      } finally {
        await webgpu.close();
      }
    });
  });
});

describe('the self-contained files from another origin, as from a CDN', () => {
  let cdn: StaticServer;
  let site: StaticServer;

  beforeAll(async () => {
    // The installed package's dist/ on an origin of its own, with CORS, as a CDN for npm packages serves it.
    cdn = await serve(join(app.dir, 'node_modules/inpage-agent/dist'), { 'Access-Control-Allow-Origin': '*' });
    const pages = join(app.dir, 'cdn-pages');
    mkdirSync(pages, { recursive: true });
    site = await serve(pages, {});
    const bundle = `${cdn.url}/inpage-agent.js`;
    const example = docBlock('README.md', FIRST_EXAMPLE, 'js', "engine: 'scripted'");
    writeFileSync(join(pages, 'module.html'), page('./module.js'));
    writeFileSync(join(pages, 'module.js'), example.replace("from 'inpage-agent'", `from '${bundle}'`));
    writeFileSync(
      join(pages, 'script-tag.html'),
      page('./script-tag.js', { module: false }).replace(
        '<script defer',
        `<script src="${cdn.url}/inpage-agent.iife.js"></script>\n    <script defer`,
      ),
    );
    writeFileSync(
      join(pages, 'script-tag.js'),
      docBlock('docs/install.md', 'Use it from a script tag', 'js', 'window.InpageAgent'),
    );
    const starting = (options: string) =>
      `import { createAgent } from '${bundle}';\ntry {\n  await createAgent(${options});\n  console.log('started');\n} catch (error) {\n  console.log(\`\${error.code}: \${error.message}\`);\n}\n`;
    writeFileSync(join(pages, 'webllm.html'), page('./webllm.js'));
    writeFileSync(
      join(pages, 'webllm.js'),
      starting("{ model: { engine: 'webllm', modelId: 'SmolLM2-135M-Instruct-q0f32-MLC' }, storage: 'memory' }"),
    );
    writeFileSync(join(pages, 'tabs.html'), page('./tabs.js'));
    writeFileSync(
      join(pages, 'tabs.js'),
      starting("{ model: { engine: 'scripted', turns: [] }, storage: 'memory', share: 'tabs' }"),
    );
  });

  const startedOrFailed = (log: string) => log === 'started' || /^[a-z-]+: /.test(log);

  test("the README's module example, importing inpage-agent.js from the CDN, runs; the scripted agent fetches no web-llm", async () => {
    const run = await runPage(browser, `${site.url}/module.html`);
    expectTheExampleRan(run);
    const urls = run.fetched.map((response) => response.url);
    expect(urls).toContain(`${cdn.url}/inpage-agent.worker.js`);
    expect(urls).not.toContain(WEBLLM_CHUNK(cdn.url));
    expect(webllmBytes(run)).toBe(0);
  });

  test('the script-tag example of docs/, with inpage-agent.iife.js from the CDN, runs', async () => {
    expectTheExampleRan(await runPage(browser, `${site.url}/script-tag.html`));
  });

  test('a web-llm agent loads web-llm from beside the worker and, without WebGPU here, fails with webgpu-unavailable', async () => {
    const run = await runPage(browser, `${site.url}/webllm.html`, startedOrFailed);
    expect(run.logs.at(-1)).toMatch(/^webgpu-unavailable: /);
    // This page does fetch web-llm (what the scripted pages are compared with); its body may be gone with the worker.
    expect(run.fetched.map((response) => response.url)).toContain(WEBLLM_CHUNK(cdn.url));
    expect(
      webllmMarkersIn(readFileSync(join(app.dir, 'node_modules/inpage-agent/dist/chunks/webllm-engine.js'), 'latin1')),
    ).not.toEqual([]);
    expect(run.failed).toEqual([]);
  });

  test("share: 'tabs' with the shared worker on the CDN's origin is refused with worker-failed, naming sharedWorkerUrl", async () => {
    const run = await runPage(browser, `${site.url}/tabs.html`, startedOrFailed);
    expect(run.logs.at(-1)).toMatch(/^worker-failed: .*sharedWorkerUrl/);
  });
});

describe("the README's module example, built by each bundler", () => {
  test("vite build, Vite's defaults: runs unchanged under a strict CSP, and no request fails", async () => {
    const server = await serve(await build.vite());
    expectTheExampleRan(await runPage(browser, server.url));
    expect(server.reports).toEqual([]);
  });

  test('vite build with the vite.config.js line of docs/: a scripted agent fetches no byte of web-llm', async () => {
    const out = await build.viteLean();
    const server = await serve(out);
    const run = await runPage(browser, server.url);
    expectTheExampleRan(run);
    expect(server.reports).toEqual([]);
    // The chunk is in the build (a web-llm model would load it) but nobody asked for it.
    expect(readdirSync(join(out, 'assets')).some((file) => file.startsWith('webllm-engine'))).toBe(true);
    expect(webllmBytes(run)).toBe(0);
  });

  test("webpack 5 production build: runs unchanged under a strict CSP; web-llm is never fetched; the worker still imports a page's own engine module", async () => {
    const out = await build.webpack();
    writeFileSync(join(out, 'index.html'), page('main.js', { module: false }));
    const server = await serve(out);
    const run = await runPage(browser, server.url);
    expectTheExampleRan(run);
    expect(server.reports).toEqual([]);
    expect(webllmBytes(run)).toBe(0);

    // webpack must leave the worker's import() of the engine's URL to the browser.
    mkdirSync(join(out, 'engines'), { recursive: true });
    cpSync(join(repoRoot, 'test/model/fixtures/engines/echo-engine.js'), join(out, 'engines/echo-engine.js'));
    writeFileSync(join(out, 'engine.html'), page('engine.js', { module: false }));
    const engine = await runPage(browser, `${server.url}/engine.html`, (log) => log.startsWith('Done: '));
    expect(engine.errors).toEqual([]);
    expect(engine.failed).toEqual([]);
    expect(engine.items).toEqual(['buy milk']);
    expect(server.reports).toEqual([]);
  });

  test("esbuild: without the docs' line the agent fails with worker-failed naming that line; with it, the example runs and fetches no web-llm", async () => {
    const { entry } = esbuildCommand();
    const alone = await build.esbuild({ withLine: false });
    writeFileSync(join(alone, 'index.html'), page('main.js'));
    const without = await runPage(browser, (await serve(alone)).url);
    expect(without.items).toEqual([]);
    expect(without.errors).toHaveLength(1);
    expect(without.errors[0]).toMatch(/^AgentError: /);
    expect(without.errors[0]).toContain(entry);

    const out = await build.esbuild({ withLine: true });
    writeFileSync(join(out, 'index.html'), page('main.js'));
    const server = await serve(out);
    const run = await runPage(browser, server.url);
    expectTheExampleRan(run);
    expect(server.reports).toEqual([]);
    expect(webllmBytes(run)).toBe(0);
  });
});
