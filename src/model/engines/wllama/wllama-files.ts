/**
 * A GGUF model's files for the wllama engine: downloaded once, with progress
 * (bytes, speed, time left) and abort, checked, kept in the browser's Cache
 * Storage, and handed to llama.cpp as Blobs (Chromium backs a cached
 * response's blob by the disk, so a model is not held twice).
 *
 * No file that fails a check stays in the cache, so a bad copy never outlives
 * the load that found it: a file is checked as it arrives (it starts with
 * "GGUF", it is as long as the server said), then its header (gguf-check.ts:
 * every count, length and offset within the file) and its SHA-256 when the
 * page gave one. A copy found in the cache goes through the same checks and,
 * when it fails one, is thrown away and downloaded again, once; so is a copy
 * that llama.cpp itself refuses (withModelFiles). A cache that cannot hold a
 * file (a private window's limit of 256 MiB on one entry, a full disk) does
 * not fail the load: the file is downloaded again into memory, and the page
 * is told.
 *
 * Each failure says what to do: a 404, an HTML page where the file should be
 * (a missing file behind a page fallback), a file that is not a GGUF or not a
 * whole one, a model larger than llama.cpp's 4 GiB of WebAssembly memory can
 * hold (refused before a byte is downloaded), a refused connection, and a
 * download that stops moving (`model.downloadStallMs`).
 */
import { AgentError, messageOf } from '../../../errors';
import type { ModelProgress } from '../../engine';
import { ggufProblem } from './gguf-check';

/** The Cache Storage bucket that holds GGUF files, keyed by URL. */
export const GGUF_CACHE = 'inpage-agent-gguf';
/** How long a download may stand still (no answer, or no bytes since the last ones) before it fails. */
const DEFAULT_DOWNLOAD_STALL_MS = 30_000;
/** llama.cpp's wasm memory is 4 GiB (wllama's heap maximum); the context and the work buffers need some of it. */
const MAX_MODEL_BYTES = 4 * 2 ** 30 - 384 * 2 ** 20;
const MAGIC = [0x47, 0x47, 0x55, 0x46]; // "GGUF"
const SHA256 = /^[0-9a-f]{64}$/i;
/** Said wherever a page may want a model's files gone: it needs no agent (page/model-cache-without-agent.ts). */
const CLEAR_HINT = "deleteModelCache(model) removes a model's files, with or without an agent";

export interface ModelFiles {
  blobs: Blob[];
  bytes: number;
  /** At least one file came from the cache. */
  fromCache: boolean;
  /** A sentence saying that the files are not kept in this browser's cache (this load holds them in memory), and why. */
  notKept?: string;
}

export interface FileOptions {
  onProgress?: ProgressListener;
  signal?: AbortSignal;
  /** How long a download may stand still before it fails (default 30 s). */
  stallMs?: number;
  /** Each file's SHA-256 in hex, in the order of the URLs (sha256List). */
  sha256?: readonly string[];
  /** Leave the cache unread: download every file (a copy from the cache was just refused). */
  fresh?: boolean;
}

export type ProgressListener = (progress: ModelProgress) => void;

/** Share of the whole load the download stands for; reading the files into llama.cpp is the rest. */
export const DOWNLOAD_SHARE = 0.9;

/** model.sha256 as one lowercase hash per file, or an invalid-options error that says what is wrong with it. */
export function sha256List(sha256: string | readonly string[] | undefined, files: number): string[] | undefined {
  if (sha256 === undefined) return undefined;
  const list = typeof sha256 === 'string' ? [sha256] : [...sha256];
  if (list.some((hash) => typeof hash !== 'string' || !SHA256.test(hash)))
    throw new AgentError(
      'invalid-options',
      'model.sha256 must be a SHA-256 in hex (64 characters), or one per file of a split model, in the order of model.url.',
    );
  if (list.length !== files)
    throw new AgentError(
      'invalid-options',
      `model.sha256 gives ${list.length} hash${list.length === 1 ? '' : 'es'} for ${files} file${files === 1 ? '' : 's'}: give one per file of model.url, in the same order.`,
    );
  return list.map((hash) => hash.toLowerCase());
}

/**
 * The model's files, from the cache or downloaded; each checked (see above). A copy in the cache that fails a
 * check leaves it and is downloaded again; a download that fails one never stays in it.
 */
export async function modelFiles(urls: readonly string[], options: FileOptions = {}): Promise<ModelFiles> {
  const { onProgress } = options;
  const cache = await openCache(urls);
  /** What was wrong with each copy found in the cache and thrown away. */
  const discarded: { url: string; problem: string }[] = [];
  const blobs: (Blob | undefined)[] = [];
  // In order, one file at a time: a SHA-256 needs the whole file in memory (fileProblem).
  for (const [index, url] of urls.entries()) {
    const blob = cache && !options.fresh ? await cachedBlob(cache, url) : undefined;
    const problem = blob && (await fileProblem(url, blob, options.sha256?.[index], onProgress));
    if (problem) {
      await cache!.delete(url);
      discarded.push({ url, problem });
    }
    blobs.push(problem ? undefined : blob);
  }
  if (blobs.every((blob) => blob !== undefined)) {
    const bytes = blobs.reduce((sum, blob) => sum + blob!.size, 0);
    onProgress?.({
      progress: DOWNLOAD_SHARE,
      text: `Found ${describe(urls)} (${mb(bytes)}) in this browser's cache.`,
      loadedBytes: bytes,
      totalBytes: bytes,
    });
    return { blobs: blobs as Blob[], bytes, fromCache: true };
  }
  const thrownAway = discarded
    .map(
      ({ url, problem }) => `The copy of ${nameOf(url)} that was in this browser's cache was thrown away: ${problem}.`,
    )
    .join(' ');
  if (thrownAway) onProgress?.({ progress: 0, text: `${thrownAway} Downloading it again.` });
  try {
    return await download(cache, urls, blobs, options);
  } catch (error) {
    if (!thrownAway || !(error instanceof AgentError)) throw error;
    throw withNote(
      error,
      thrownAway,
      discarded.map(({ url }) => url),
    );
  }
}

/** The files `found` lacks, downloaded, kept and checked; with those found, in the order of `urls`. */
async function download(
  cache: Cache | undefined,
  urls: readonly string[],
  found: readonly (Blob | undefined)[],
  options: FileOptions,
): Promise<ModelFiles> {
  const blobs = [...found];
  const cachedBytes = blobs.reduce((sum, blob) => sum + (blob?.size ?? 0), 0);
  const missing = urls.filter((_, index) => !blobs[index]);
  const opened = await Promise.allSettled(missing.map((url) => Download.open(url, options)));
  const files = opened.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const failed = opened.find((result) => result.status === 'rejected');
  if (failed) {
    for (const file of files) file.stop();
    throw failed.reason;
  }
  const total = files.reduce((sum, file) => sum + file.length, 0);
  if (cachedBytes + total > MAX_MODEL_BYTES) {
    for (const file of files) file.stop();
    throw tooLarge(urls, cachedBytes + total);
  }
  const meter = new Meter(total, describe(missing), options.onProgress);
  const kept = await Promise.all(files.map((file) => keep(cache, file, meter, options)));
  meter.done();
  for (const { url, blob } of kept) {
    const index = urls.indexOf(url);
    const problem = await fileProblem(url, blob, options.sha256?.[index], options.onProgress);
    if (problem) {
      await cache?.delete(url);
      throw unusable(url, problem);
    }
    blobs[index] = blob;
  }
  const why = [...new Set(kept.flatMap(({ notKept }) => (notKept ? [notKept] : [])))].join('; ');
  const notKept =
    why &&
    `${describe(missing)} is not kept in this browser's cache (${why}): this load holds it in memory, and the next load downloads it again.`;
  return {
    blobs: blobs as Blob[],
    bytes: blobs.reduce((sum, blob) => sum + blob!.size, 0),
    fromCache: cachedBytes > 0,
    ...(notKept && { notKept }),
  };
}

/**
 * The model's files handed to `load` (llama.cpp), which finds what only a model's loader can (a missing tensor,
 * an unknown tensor type). Files it refuses (model-invalid) leave the cache; when some came from the cache, they
 * are downloaded again and handed over once more.
 */
export async function withModelFiles<T>(
  urls: readonly string[],
  options: FileOptions,
  load: (files: ModelFiles) => Promise<T>,
): Promise<{ files: ModelFiles; value: T }> {
  const files = await modelFiles(urls, options);
  try {
    return { files, value: await load(files) };
  } catch (error) {
    if (!refused(error)) throw clearHint(error, files);
    await deleteCached(urls);
    if (!files.fromCache) throw withNote(error, notKeptNote(files), urls);
    options.onProgress?.({
      progress: 0,
      text: `llama.cpp could not read the copy of ${describe(urls)} in this browser's cache (${error.message}); it was thrown away. Downloading it again.`,
    });
    const fresh = await modelFiles(urls, { ...options, fresh: true }).catch((again: unknown) => {
      if (!(again instanceof AgentError)) throw again;
      throw withNote(
        again,
        "The copy that was in this browser's cache was refused by llama.cpp and thrown away.",
        urls,
      );
    });
    try {
      return { files: fresh, value: await load(fresh) };
    } catch (again) {
      if (!refused(again)) throw again;
      await deleteCached(urls);
      throw withNote(
        again,
        "The copy that was in this browser's cache was refused first and thrown away; this fresh download was refused too, and was not kept either.",
        urls,
      );
    }
  }
}

export async function areCached(urls: readonly string[]): Promise<boolean> {
  const cache = await openCache(urls);
  if (!cache) return false;
  return (await Promise.all(urls.map((url) => cachedBlob(cache, url)))).every((blob) => blob !== undefined);
}

export async function deleteCached(urls: readonly string[]): Promise<void> {
  const cache = await openCache(urls);
  if (cache) await Promise.all(urls.map((url) => cache.delete(url)));
}

/**
 * A blob: or data: URL is a file the page already holds (e.g. a GGUF a visitor chose from their disk): there is
 * nothing to keep, and Cache Storage would refuse it (put() takes http(s) requests only).
 */
const heldByPage = (url: string) => /^(blob|data):/i.test(url);

async function openCache(urls: readonly string[]): Promise<Cache | undefined> {
  if (urls.some(heldByPage)) return undefined;
  try {
    return await caches.open(GGUF_CACHE);
  } catch {
    return undefined; // no Cache Storage here (an opaque origin, a private mode that denies it): download every time
  }
}

async function cachedBlob(cache: Cache, url: string): Promise<Blob | undefined> {
  const response = await cache.match(url);
  if (!response) return undefined;
  const blob = await response.blob();
  return blob.size > 0 ? blob : undefined;
}

/**
 * What is wrong with a stored file, or undefined: its header (a few MB read), then its SHA-256 when one is given.
 * crypto.subtle.digest takes the whole file at once, so hashing holds it in memory for a moment: one file at a
 * time, before llama.cpp reads any, and only for a page that gave a hash. The cost, in Chromium 156 on a busy
 * 2-core machine: 200 MiB read back from the cache in 150–290 ms and hashed in 260–350 ms, so about 1.5 s of
 * each load of a 491 MB model (checked again from the cache too: a copy there may be an older, bad one).
 */
async function fileProblem(
  url: string,
  blob: Blob,
  sha256: string | undefined,
  onProgress?: ProgressListener,
): Promise<string | undefined> {
  const problem = await ggufProblem(
    async (offset, length) => new Uint8Array(await blob.slice(offset, offset + length).arrayBuffer()),
    blob.size,
  );
  if (problem || !sha256) return problem;
  onProgress?.({ progress: DOWNLOAD_SHARE, text: `Checking the SHA-256 of ${nameOf(url)} (${mb(blob.size)})…` });
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', await blob.arrayBuffer()));
  const actual = [...digest].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return actual === sha256 ? undefined : `its SHA-256 is ${actual}, and model.sha256 gives ${sha256}`;
}

/**
 * One file's download: its response, what stopped it when something did, and a watch that aborts it when it
 * stands still for stallMs (no answer, or no bytes since the last ones).
 */
class Download {
  response!: Response;
  /** Content-Length, or 0 when the server gives none. */
  length = 0;
  /** Bytes of the body so far. */
  received = 0;
  /** The body arrived whole. */
  complete = false;
  /** Why a check refused the body, when one did. */
  refused?: AgentError;
  /** Set when nothing came for stallMs. */
  stalled?: AgentError;
  private timer?: ReturnType<typeof setTimeout>;
  private readonly halt = new AbortController();

  private constructor(
    readonly url: string,
    private readonly stallMs: number,
  ) {}

  static async open(url: string, options: FileOptions): Promise<Download> {
    const download = new Download(url, options.stallMs ?? DEFAULT_DOWNLOAD_STALL_MS);
    const { signal } = options;
    download.moved();
    try {
      download.response = await request(
        url,
        signal ? AbortSignal.any([signal, download.halt.signal]) : download.halt.signal,
      );
    } catch (error) {
      download.stop();
      throw download.stalled ?? (signal?.aborted ? aborted() : error);
    }
    download.length = Number(download.response.headers.get('content-length')) || 0;
    return download;
  }

  /** Bytes came, or the body ended: the watch starts over, or stops. */
  moved(): void {
    clearTimeout(this.timer);
    if (this.complete) return;
    this.timer = setTimeout(() => {
      this.stalled = stalled(this.url, this.stallMs, this.received, this.length, Boolean(this.response));
      this.halt.abort(this.stalled);
    }, this.stallMs);
  }

  /** Ends the watch, and the download if it still runs. */
  stop(): void {
    clearTimeout(this.timer);
    this.halt.abort();
  }
}

async function request(url: string, signal: AbortSignal): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url, { signal });
  } catch (error) {
    throw new AgentError(
      'download-failed',
      `The model file ${url} could not be downloaded (${messageOf(error)}). Check that this address is reachable from the page; a file on another origin must be served with CORS headers (Access-Control-Allow-Origin), and a Content-Security-Policy must allow it in connect-src.`,
      { cause: error },
    );
  }
  if (response.status === 404 || response.status === 410)
    throw new AgentError(
      'model-not-found',
      `There is no model file at ${url} (HTTP ${response.status}). Check model.url: it must be the address of a .gguf file (or, for a split model, the list of its files in order).`,
      { details: { url, status: response.status } },
    );
  if (!response.ok)
    throw new AgentError(
      'download-failed',
      `The model file ${url} could not be downloaded: the server answered HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}. Try again later, or host the file yourself and pass its address as model.url.`,
      { details: { url, status: response.status } },
    );
  if (/^text\/html/i.test(response.headers.get('content-type') ?? '')) {
    await response.body?.cancel().catch(() => undefined);
    throw notGguf(
      url,
      'the server answered with an HTML page instead of the file (a missing file behind a page fallback, or a login page)',
    );
  }
  return response;
}

/** The file's body through its first checks (the magic, the length the server gave) and the progress meter. */
function checkedBody(file: Download, meter: Meter): ReadableStream<Uint8Array> {
  if (!file.response.body) throw notGguf(file.url, 'the response has no body');
  let head: number[] = [];
  // A compressed body's Content-Length counts the compressed bytes: its length cannot be compared.
  const length = file.response.headers.get('content-encoding') ? 0 : file.length;
  // Cache.put rejects with an error of its own when the body fails: the check's reason is kept on the file.
  return file.response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        file.moved();
        if (head.length < MAGIC.length) {
          head = [...head, ...chunk.subarray(0, MAGIC.length - head.length)];
          if (head.length === MAGIC.length && head.some((byte, i) => byte !== MAGIC[i]))
            file.refused = notGguf(file.url, startsWith(head));
          if (file.refused) throw file.refused;
        }
        file.received += chunk.byteLength;
        meter.add(chunk.byteLength);
        controller.enqueue(chunk);
      },
      flush() {
        file.complete = true;
        file.moved();
        if (head.length < MAGIC.length)
          file.refused = notGguf(file.url, file.received === 0 ? 'it is empty' : 'it is shorter than a GGUF header');
        else if (length && file.received !== length)
          file.refused = unusable(
            file.url,
            `the server said it is ${length} bytes long, and ${file.received} came (the connection was cut, or the server's file changed while it was sent)`,
          );
        if (file.refused) throw file.refused;
      },
    }),
  );
}

interface Kept {
  url: string;
  blob: Blob;
  /** Why the file is held in memory only, when it is. */
  notKept?: string;
}

/**
 * The file's body into the cache; when the cache cannot hold it (a private window's limit on one entry, a full
 * disk, or no Cache Storage at all), downloaded again into memory, since put() has read the body by then. A body
 * that fails a check, stalls or is aborted is never stored: put() stores nothing when its body fails.
 */
async function keep(cache: Cache | undefined, file: Download, meter: Meter, options: FileOptions): Promise<Kept> {
  let why = heldByPage(file.url)
    ? undefined
    : 'this page has no Cache Storage (an opaque origin, or a browser setting that denies it)';
  if (cache) {
    try {
      await cache.put(
        file.url,
        new Response(checkedBody(file, meter), { headers: { 'content-type': 'application/octet-stream' } }),
      );
      const blob = await cachedBlob(cache, file.url);
      if (blob) return { url: file.url, blob };
      why = 'the browser stored it but cannot read it back';
    } catch (error) {
      if (!cacheRefused(file, error)) throw failure(file, error, options, meter);
      why = refusal(error);
    } finally {
      file.stop();
    }
    await cache.delete(file.url).catch(() => undefined);
    meter.take(file.received);
    options.onProgress?.({
      progress: 0,
      text: `${nameOf(file.url)} cannot be kept in this browser's cache (${why}): downloading it again, to load it from memory.`,
    });
    file = await Download.open(file.url, options);
  }
  try {
    const blob = await new Response(checkedBody(file, meter)).blob();
    return { url: file.url, blob, ...(why && { notKept: why }) };
  } catch (error) {
    throw failure(file, error, options, meter, file.complete ? why : undefined);
  } finally {
    file.stop();
  }
}

/** Whether put() failed for want of room in the cache, not for the download: it had the whole body, or said so. */
function cacheRefused(file: Download, error: unknown): boolean {
  if (file.refused || file.stalled) return false;
  return (
    file.complete ||
    (error instanceof DOMException && (error.name === 'QuotaExceededError' || error.name === 'UnknownError'))
  );
}

function refusal(error: unknown): string {
  if (error instanceof DOMException && error.name === 'QuotaExceededError')
    return `this browser has no room left for it; ${CLEAR_HINT}, the browser's site settings clear the rest`;
  return `the browser's cache refused it: ${messageOf(error)}; Chromium's private windows hold at most 256 MiB in one entry`;
}

function failure(file: Download, error: unknown, options: FileOptions, meter: Meter, notKept?: string): AgentError {
  if (file.refused) return file.refused;
  if (file.stalled) return file.stalled;
  if (options.signal?.aborted) return aborted();
  if (error instanceof AgentError) return error;
  if (notKept)
    return new AgentError(
      'out-of-memory',
      `${nameOf(file.url)} (${mb(meter.total)}) could not be loaded: the cache cannot keep it (${notKept}), and holding it in memory failed too (${messageOf(error)}). Use a smaller model, or open the page in a normal window.`,
      { cause: error },
    );
  return new AgentError(
    'download-failed',
    `Downloading ${file.url} failed midway (${messageOf(error)}). Load the model again to retry.`,
    { cause: error },
  );
}

/** Bytes so far against the total, with the speed since the first bytes and the time left at that speed. */
class Meter {
  private loaded = 0;
  private readonly started = performance.now();
  private last = 0;

  constructor(
    readonly total: number,
    private readonly what: string,
    private readonly onProgress?: ProgressListener,
  ) {}

  add(bytes: number): void {
    this.loaded += bytes;
    const now = performance.now();
    if (now - this.last < 100) return;
    this.last = now;
    this.report();
  }

  /** Takes back bytes counted for a download that starts over. */
  take(bytes: number): void {
    this.loaded -= bytes;
  }

  done(): void {
    this.report();
  }

  private report(): void {
    if (!this.onProgress) return;
    const seconds = (performance.now() - this.started) / 1000;
    const speed = seconds > 0.2 ? this.loaded / seconds : 0;
    const total = Math.max(this.total, this.loaded);
    const left = speed > 0 && total > this.loaded ? (total - this.loaded) / speed : 0;
    const parts = [`Downloading ${this.what}: ${mb(this.loaded)} of ${total ? mb(total) : 'unknown size'}`];
    if (speed) parts.push(`${(speed / 2 ** 20).toFixed(1)} MB/s`);
    if (left) parts.push(left < 60 ? `${Math.ceil(left)} s left` : `${Math.ceil(left / 60)} min left`);
    this.onProgress({
      progress: total ? (DOWNLOAD_SHARE * this.loaded) / total : 0,
      text: parts.join(' · '),
      loadedBytes: this.loaded,
      ...(total && { totalBytes: total }),
    });
  }
}

/** An error llama.cpp gave because it could not read the files (not for want of memory or a context too large). */
function refused(error: unknown): error is AgentError {
  return error instanceof AgentError && error.code === 'model-invalid';
}

function notKeptNote(files: ModelFiles): string {
  return files.notKept
    ? 'It was held in memory only, as the cache could not keep it.'
    : "It was not kept in this browser's cache: the next load downloads it again.";
}

/** The error with a sentence added, and the URLs whose copies left the cache in its details. */
function withNote(error: AgentError, note: string, urls: readonly string[]): AgentError {
  return new AgentError(error.code, `${error.message} ${note}`, {
    cause: error.cause ?? error,
    details: { ...(error.details as object | undefined), removedFromCache: [...urls] },
  });
}

/**
 * A load that llama.cpp failed on files from the cache, for a reason it did not pin on them (a failure of its
 * own words, not a stall or a policy): the page may want them gone.
 */
function clearHint(error: unknown, files: ModelFiles): unknown {
  if (!files.fromCache || !(error instanceof AgentError) || error.code !== 'model-failed') return error;
  if (!(error.details as { log?: unknown } | undefined)?.log) return error;
  return new AgentError(
    error.code,
    `${error.message}. If the files in this browser's cache are at fault, ${CLEAR_HINT}, and the next load downloads them again.`,
    { cause: error.cause ?? error, details: error.details },
  );
}

function stalled(url: string, stallMs: number, received: number, length: number, answered: boolean): AgentError {
  const where = !answered
    ? ' (not even an answer from the server)'
    : `, after ${amount(received)}${length ? ` of ${amount(length)}` : ''}`;
  return new AgentError(
    'download-failed',
    `Downloading ${url} stalled: nothing came for ${Math.round(stallMs / 1000)} s${where}. Nothing was kept. Check the connection and load again; model.downloadStallMs sets how long a download may stand still.`,
    { details: { url, received, stallMs } },
  );
}

function tooLarge(urls: readonly string[], bytes: number): AgentError {
  return new AgentError(
    'out-of-memory',
    `${describe(urls)} is ${mb(bytes)}, more than llama.cpp can hold in a browser (WebAssembly gives it at most 4 GiB, and the context needs part of that). Use a smaller model or a smaller quantization of it (Q4_K_M instead of Q8_0, for example).`,
    { details: { bytes, limit: MAX_MODEL_BYTES } },
  );
}

function notGguf(url: string, why: string): AgentError {
  return new AgentError(
    'model-invalid',
    `${url} is not a GGUF model file: ${why}. Check model.url: it must point at the .gguf file itself (on Hugging Face, a /resolve/main/… address, not the /blob/ page). It was not kept in this browser's cache.`,
    { details: { url } },
  );
}

/** A file that starts like a GGUF and fails a later check. */
function unusable(url: string, problem: string): AgentError {
  const hint = problem.includes('model.sha256')
    ? 'Check that model.sha256 is the hash of the file at model.url, and that the server holds the file you expect.'
    : 'The file on the server is damaged or was cut short (an upload or a copy that did not finish): replace it, then load again.';
  return new AgentError(
    'model-invalid',
    `${url} is not a usable GGUF model file: ${problem}. ${hint} It was not kept in this browser's cache.`,
    { details: { url } },
  );
}

function startsWith(bytes: number[]): string {
  if (bytes[0] === 0x3c /* < */) return 'it starts like an HTML or XML document';
  if (bytes[0] === 0x7b /* { */) return 'it starts like a JSON document';
  return `it starts with the bytes ${bytes.map((byte) => byte.toString(16).padStart(2, '0')).join(' ')}, not "GGUF"`;
}

function aborted(): AgentError {
  return new AgentError('aborted', 'Loading the model was aborted.');
}

function nameOf(url: string): string {
  return decodeURIComponent(new URL(url, 'http://x/').pathname.split('/').pop() || url);
}

function describe(urls: readonly string[]): string {
  return urls.length === 1 ? nameOf(urls[0]) : `${nameOf(urls[0])} and ${urls.length - 1} more parts`;
}

export function mb(bytes: number): string {
  return bytes >= 2 ** 30 ? `${(bytes / 2 ** 30).toFixed(1)} GB` : `${Math.round(bytes / 2 ** 20)} MB`;
}

/** A size as a person reads it: bytes under a megabyte. */
function amount(bytes: number): string {
  return bytes < 2 ** 20 ? `${bytes} bytes` : mb(bytes);
}
