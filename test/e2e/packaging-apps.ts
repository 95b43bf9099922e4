/**
 * For the packaging tests: this repository packed as npm would publish it,
 * installed from its tarball into one fresh app folder beside Vite, webpack
 * and esbuild (one pack and one install serve every case of every file in a
 * run; npm's cache makes the install quick after the first run), the blocks of the README and docs/ to paste into it, and a Chromium page
 * runner that records every response and every failure.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import { oncePerRun } from '../once-per-run';
// @ts-expect-error: a plain .mjs module without types
import { packPackage } from '../../scripts/build.mjs';
// @ts-expect-error: a plain .mjs module without types
import { webllmMarkersIn } from '../../scripts/library-builds.mjs';

const run = promisify(execFile);
export const repoRoot = resolve(import.meta.dirname, '../..');
/** The bundlers a new user would install today, by major version. */
const APP_DEPENDENCIES = ['vite@^8.3.8', 'webpack@^5.100.0', 'webpack-cli@^7.0.0', 'esbuild@^0.28.0', 'zod@^4.6.7'];

/** `npm pack --json`'s answer for our tarball. */
export interface PackReport {
  filename: string;
  size: number;
  unpackedSize: number;
  files: { path: string; size: number }[];
}

export interface PackagedApp {
  /** The fresh app: package.json, index.html, src/main.js (the README's first example), node_modules. */
  dir: string;
  tarball: string;
  pack: PackReport;
  /** What `npm install` printed. */
  installLog: string;
}

let app: Promise<PackagedApp> | undefined;

/** What the run's one pack and install left beside the tarball and the app (read by every file). */
interface Packed {
  tarball: string;
  pack: PackReport;
  installLog: string;
}

/** Packs the package and installs it into a fresh app, once per test run (test/once-per-run.ts). */
function packedOnce(): Promise<string> {
  return oncePerRun('packaged-app', async (tmp) => {
    const { tarball, report: pack } = (await packPackage(tmp)) as { tarball: string; report: PackReport };
    const dir = join(tmp, 'app');
    mkdirSync(join(dir, 'src'), { recursive: true });
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'fresh-app', private: true, type: 'module' }));
    const installed = await run(
      'npm',
      ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball, ...APP_DEPENDENCIES],
      { cwd: dir, maxBuffer: 16 * 1024 * 1024 },
    );
    writeFileSync(join(dir, 'index.html'), page('/src/main.js'));
    writeFileSync(join(dir, 'src/main.js'), docBlock('README.md', FIRST_EXAMPLE, 'js', "engine: 'scripted'"));
    const packed: Packed = { tarball: basename(tarball), pack, installLog: `${installed.stdout}\n${installed.stderr}` };
    writeFileSync(join(tmp, 'packed.json'), JSON.stringify(packed));
  });
}

/** The run's one pack and install: its folder, and what it left there. */
async function packedRun(): Promise<{ shared: string; packed: Packed }> {
  const shared = await packedOnce();
  return { shared, packed: JSON.parse(readFileSync(join(shared, 'packed.json'), 'utf8')) as Packed };
}

/** The run's one tarball of the package, copied into `dir` (this process's own folder): the copy's path. */
export async function packedTarball(dir: string): Promise<string> {
  const { shared, packed } = await packedRun();
  cpSync(join(shared, packed.tarball), join(dir, packed.tarball));
  return join(dir, packed.tarball);
}

/**
 * The packed package and the fresh app installed from it, this test process's own copy (tests write into it),
 * with the tarball beside the app as npm installed it.
 */
export function packagedApp(): Promise<PackagedApp> {
  app ??= (async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'inpage-packaging-'));
    process.once('exit', () => rmSync(tmp, { recursive: true, force: true }));
    const tarball = await packedTarball(tmp);
    const { shared, packed } = await packedRun();
    const { pack, installLog } = packed;
    // node_modules/.bin holds relative links: copied as they are, they lead into the copy.
    cpSync(join(shared, 'app'), join(tmp, 'app'), { recursive: true, verbatimSymlinks: true });
    return { dir: join(tmp, 'app'), tarball, pack, installLog };
  })();
  return app;
}

/**
 * Another fresh app, `name`, with the same tarball and `dependencies` (a server's packages, say), installed
 * once per test process.
 */
export async function freshApp(name: string, dependencies: string[]): Promise<string> {
  const { tarball } = await packagedApp();
  const dir = join(tarball, '..', name);
  if (!existsSync(join(dir, 'node_modules/inpage-agent'))) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `fresh-${name}`, private: true, type: 'module' }));
    await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball, ...dependencies], {
      cwd: dir,
      maxBuffer: 16 * 1024 * 1024,
    });
  }
  return dir;
}

/** The README's section with the first example, which every bundler's case builds. */
export const FIRST_EXAMPLE = 'Your first agent: a to-do list';

/** The page every case opens: the README's example needs a #todos list. */
export function page(script: string, { module = true } = {}): string {
  const tag = module ? `<script type="module" src="${script}"></script>` : `<script defer src="${script}"></script>`;
  return `<!doctype html>\n<html lang="en">\n  <head><meta charset="utf-8" /><title>fresh app</title></head>\n  <body>\n    <ul id="todos"></ul>\n    ${tag}\n  </body>\n</html>\n`;
}

/**
 * The first ```lang block that contains `marker` in the section of a doc (README.md, docs/*.md) under
 * `heading`, exactly as written there. The heading may be of any level; its section runs to the next
 * heading of the same level or above (a `#` line inside a code block is not a heading).
 */
export function docBlock(doc: string, heading: string, lang: string, marker: string): string {
  const lines = readFileSync(join(repoRoot, doc), 'utf8').split('\n');
  let inCode = false;
  const headings = lines.map((line) => {
    if (/^ *```/.test(line)) inCode = !inCode;
    const match = !inCode && /^(#{1,6}) (.+)$/.exec(line);
    return match ? { level: match[1]!.length, text: match[2]! } : undefined;
  });
  const start = headings.findIndex((found) => found?.text === heading);
  if (start < 0) throw new Error(`${doc} has no section "${heading}"`);
  const level = headings[start]!.level;
  const end = headings.findIndex((found, index) => index > start && found !== undefined && found.level <= level);
  const section = lines.slice(start, end < 0 ? undefined : end).join('\n');
  const block = [...section.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))]
    .map((match) => match[1]!)
    .find((code) => code.includes(marker));
  if (!block) throw new Error(`${doc}'s "${heading}" has no \`\`\`${lang} block with ${marker}`);
  return block;
}

/** Runs a program of the app (a bundler's CLI); rejects with its output when it fails. */
export async function inApp(dir: string, command: string, args: string[]): Promise<string> {
  try {
    const { stdout, stderr } = await run(command, args, { cwd: dir, maxBuffer: 16 * 1024 * 1024 });
    return `${stdout}\n${stderr}`;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} failed:\n${stdout ?? ''}\n${stderr ?? ''}`);
  }
}

export interface Fetched {
  url: string;
  status: number;
  /** Undefined when the browser could not hand the body over (e.g. a response stored with the Cache API). */
  bytes?: number;
  /** Whether the response holds web-llm's code; undefined with the body. */
  webllm?: boolean;
}

export interface PageRun {
  /** What the example logged (its last line is the agent's answer). */
  logs: string[];
  /** Uncaught errors, as `name: message`. */
  errors: string[];
  /** Requests that failed or got an error status (the browser's own favicon request aside). */
  failed: string[];
  fetched: Fetched[];
  /** The to-do list's items after the run. */
  items: string[];
}

/**
 * Opens `url` in a fresh context (empty cache) and waits until the page logs
 * a line `until` accepts, or throws. Responses from the page and its dedicated
 * workers count.
 */
export async function runPage(
  browser: Browser,
  url: string,
  until: (log: string) => boolean = (log) => log === 'Added milk.',
): Promise<PageRun> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const run: PageRun = { logs: [], errors: [], failed: [], fetched: [], items: [] };
  const bodies: Promise<void>[] = [];
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  page.on('console', (message) => {
    if (message.type() === 'log') run.logs.push(message.text());
    if (message.type() === 'log' && until(message.text())) finish();
  });
  page.on('pageerror', (error) => {
    run.errors.push(`${error.name}: ${error.message}`);
    finish();
  });
  page.on('requestfailed', (request) => {
    if (!request.url().endsWith('/favicon.ico')) run.failed.push(`${request.url()}: ${request.failure()?.errorText}`);
  });
  page.on('response', (response) => {
    if (response.url().endsWith('/favicon.ico')) return;
    if (response.status() >= 400) run.failed.push(`${response.url()}: ${response.status()}`);
    const fetched: Fetched = { url: response.url(), status: response.status() };
    run.fetched.push(fetched);
    bodies.push(
      response
        .body()
        .then((body) => {
          fetched.bytes = body.length;
          fetched.webllm = webllmMarkersIn(body.toString('latin1')).length > 0;
        })
        .catch(() => undefined),
    );
  });
  try {
    await page.goto(url);
    await Promise.race([
      finished,
      new Promise((_, reject) =>
        setTimeout(
          () => reject(new Error(`${url} neither logged what the test waits for nor threw within 45 s`)),
          45_000,
        ),
      ),
    ]);
    // Responses from workers can be reported after the log line they led to: wait for a quiet moment.
    for (let count = -1; count !== bodies.length;) {
      count = bodies.length;
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    await Promise.all(bodies);
    run.items = await page.locator('#todos li').allTextContents();
  } finally {
    await context.close();
  }
  return run;
}

/** What docs/install.md sets as the strict policy (see "Use it from a script tag"), plus a report address. */
export const STRICT_CSP =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; report-uri /csp-report";
