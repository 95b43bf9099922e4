/**
 * A GGUF model's files for the wllama engine: downloaded once, with progress
 * (bytes, speed, time left) and abort, checked as they arrive, kept in the
 * browser's Cache Storage, and handed to llama.cpp as Blobs (Chromium backs a
 * cached response's blob by the disk, so a model is not held twice).
 *
 * Each failure says what to do: a 404, an HTML page where the file should be
 * (a missing file behind a page fallback), a file that is not a GGUF (every
 * GGUF, each part of a split one too, starts with the bytes "GGUF"), a model
 * larger than llama.cpp's 4 GiB of WebAssembly memory can hold (refused before
 * a byte is downloaded), a refused connection, and a full disk.
 */
import { AgentError, messageOf } from '../errors';
import type { ModelProgress } from './engine';

/** The Cache Storage bucket that holds GGUF files, keyed by URL. */
export const GGUF_CACHE = 'inpage-agent-gguf';
/** llama.cpp's wasm memory is 4 GiB (wllama's heap maximum); the context and the work buffers need some of it. */
const MAX_MODEL_BYTES = 4 * 2 ** 30 - 384 * 2 ** 20;
const MAGIC = [0x47, 0x47, 0x55, 0x46]; // "GGUF"

export interface ModelFiles {
  blobs: Blob[];
  bytes: number;
  /** Every file came from the cache (no download). */
  cached: boolean;
}

export type ProgressListener = (progress: ModelProgress) => void;

/** Share of the whole load the download stands for; reading the files into llama.cpp is the rest. */
export const DOWNLOAD_SHARE = 0.9;

export async function modelFiles(
  urls: readonly string[],
  onProgress?: ProgressListener,
  signal?: AbortSignal,
): Promise<ModelFiles> {
  const cache = await openCache();
  const cached = cache ? await Promise.all(urls.map((url) => cachedBlob(cache, url))) : [];
  if (cached.length === urls.length && cached.every((blob) => blob !== undefined)) {
    const bytes = cached.reduce((sum, blob) => sum + blob!.size, 0);
    onProgress?.({
      progress: DOWNLOAD_SHARE,
      text: `Found ${describe(urls)} (${mb(bytes)}) in this browser's cache.`,
      loadedBytes: bytes,
      totalBytes: bytes,
    });
    return { blobs: cached as Blob[], bytes, cached: true };
  }
  const responses = await Promise.all(urls.map((url) => request(url, signal)));
  const sizes = responses.map((response) => Number(response.headers.get('content-length')) || 0);
  const total = sizes.reduce((sum, size) => sum + size, 0);
  if (total > MAX_MODEL_BYTES) {
    await Promise.all(responses.map((response) => response.body?.cancel().catch(() => undefined)));
    throw tooLarge(urls, total);
  }
  const meter = new Meter(total, describe(urls), onProgress);
  const blobs = await Promise.all(
    responses.map((response, index) => store(cache, urls[index], response, meter, signal)),
  );
  meter.done();
  return { blobs, bytes: blobs.reduce((sum, blob) => sum + blob.size, 0), cached: false };
}

export async function areCached(urls: readonly string[]): Promise<boolean> {
  const cache = await openCache();
  if (!cache) return false;
  return (await Promise.all(urls.map((url) => cachedBlob(cache, url)))).every((blob) => blob !== undefined);
}

export async function deleteCached(urls: readonly string[]): Promise<void> {
  const cache = await openCache();
  if (cache) await Promise.all(urls.map((url) => cache.delete(url)));
}

async function openCache(): Promise<Cache | undefined> {
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

async function request(url: string, signal?: AbortSignal): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url, { signal });
  } catch (error) {
    if (signal?.aborted) throw aborted();
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

/**
 * The response's body into the cache (or memory, without one), through a check of its first four
 * bytes and the progress meter. A body that fails the check or is aborted is never stored.
 */
async function store(
  cache: Cache | undefined,
  url: string,
  response: Response,
  meter: Meter,
  signal?: AbortSignal,
): Promise<Blob> {
  if (!response.body) throw notGguf(url, 'the response has no body');
  let head: number[] = [];
  let size = 0;
  // Cache.put rejects with an error of its own when the body fails: the check's reason is kept here.
  let refused: AgentError | undefined;
  const refuse = (why: string) => {
    refused = notGguf(url, why);
    throw refused;
  };
  const checked = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        if (head.length < MAGIC.length) {
          head = [...head, ...chunk.subarray(0, MAGIC.length - head.length)];
          if (head.length === MAGIC.length && head.some((byte, i) => byte !== MAGIC[i])) refuse(startsWith(head));
        }
        size += chunk.byteLength;
        meter.add(chunk.byteLength);
        controller.enqueue(chunk);
      },
      flush() {
        if (head.length < MAGIC.length) refuse(size === 0 ? 'it is empty' : 'it is shorter than a GGUF header');
      },
    }),
  );
  try {
    if (!cache) return await new Response(checked).blob();
    // put() stores nothing when the body fails midway (a failed check, an abort): no half file is ever cached.
    await cache.put(url, new Response(checked, { headers: { 'content-type': 'application/octet-stream' } }));
    const blob = await cachedBlob(cache, url);
    if (!blob) throw new Error('the file was stored but cannot be read back');
    return blob;
  } catch (error) {
    if (refused) throw refused;
    if (error instanceof AgentError) throw error;
    if (signal?.aborted) throw aborted();
    if (error instanceof DOMException && error.name === 'QuotaExceededError')
      throw new AgentError(
        'quota-exceeded',
        `This browser has no room left to keep the model (${mb(meter.total)}). Free space (agent.model.deleteCache() removes a model's files, the browser's site settings clear the rest), then load again.`,
        { cause: error },
      );
    throw new AgentError(
      'download-failed',
      `Downloading ${url} failed midway (${messageOf(error)}). Load the model again to retry.`,
      { cause: error },
    );
  }
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
    `${url} is not a GGUF model file: ${why}. Check model.url: it must point at the .gguf file itself (on Hugging Face, a /resolve/main/… address, not the /blob/ page).`,
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

function describe(urls: readonly string[]): string {
  const name = (url: string) => decodeURIComponent(new URL(url, 'http://x/').pathname.split('/').pop() || url);
  return urls.length === 1 ? name(urls[0]) : `${name(urls[0])} and ${urls.length - 1} more parts`;
}

export function mb(bytes: number): string {
  return bytes >= 2 ** 30 ? `${(bytes / 2 ** 30).toFixed(1)} GB` : `${Math.round(bytes / 2 ** 20)} MB`;
}
