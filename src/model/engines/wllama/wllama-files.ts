/**
 * A GGUF model's files for the wllama engine: downloaded once, with progress
 * (bytes, speed, time left: download-progress.ts) and abort, checked, kept in
 * the browser's Cache Storage (gguf-cache.ts), and handed to llama.cpp as
 * Blobs (Chromium backs a cached response's blob by the disk, so a model is
 * not held twice).
 *
 * No file that fails a check stays in the cache, so a bad copy never outlives
 * the load that found it: a file is checked as it arrives (it starts with
 * "GGUF", it is as long as the server said: keep-download.ts), then its header
 * (gguf-check.ts: every count, length and offset within the file) and its
 * SHA-256 when the page gave one (file-problem.ts). A copy found in the cache
 * goes through the same checks and, when it fails one, is thrown away and
 * downloaded again, once; so is a copy that llama.cpp itself refuses
 * (with-model-files.ts). A cache that cannot hold a file (a private window's
 * limit of 256 MiB on one entry, a full disk) does not fail the load: the file
 * is downloaded again into memory, and the page is told.
 *
 * Each failure says what to do: a 404, an HTML page where the file should be
 * (a missing file behind a page fallback), a file that is not a GGUF or not a
 * whole one, a model larger than llama.cpp's 4 GiB of WebAssembly memory can
 * hold (refused before a byte is downloaded), a refused connection, and a
 * download that stops moving (`model.downloadStallMs`: gguf-download.ts).
 */
import { AgentError } from '../../../errors';
import { describe, mb, nameOf } from './describe-files';
import { DOWNLOAD_SHARE, Meter } from './download-progress';
import { unusable, withNote } from './file-errors';
import type { FileOptions } from './file-options';
import { fileProblem } from './file-problem';
import { cachedBlob, openCache } from './gguf-cache';
import { Download } from './gguf-download';
import { keep } from './keep-download';

/** llama.cpp's wasm memory is 4 GiB (wllama's heap maximum); the context and the work buffers need some of it. */
const MAX_MODEL_BYTES = 4 * 2 ** 30 - 384 * 2 ** 20;

export interface ModelFiles {
  blobs: Blob[];
  bytes: number;
  /** At least one file came from the cache. */
  fromCache: boolean;
  /** A sentence saying that the files are not kept in this browser's cache (this load holds them in memory), and why. */
  notKept?: string;
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

function tooLarge(urls: readonly string[], bytes: number): AgentError {
  return new AgentError(
    'out-of-memory',
    `${describe(urls)} is ${mb(bytes)}, more than llama.cpp can hold in a browser (WebAssembly gives it at most 4 GiB, and the context needs part of that). Use a smaller model or a smaller quantization of it (Q4_K_M instead of Q8_0, for example).`,
    { details: { bytes, limit: MAX_MODEL_BYTES } },
  );
}
