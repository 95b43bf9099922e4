/**
 * A download's body, checked as it arrives (it starts with "GGUF", it is as
 * long as the server said), into the cache, or into memory when the cache
 * cannot hold it: a body that fails a check never stays in the cache.
 */
import { AgentError, messageOf } from '../../../errors';
import { mb, nameOf } from './describe-files';
import type { Meter } from './download-progress';
import { aborted, CLEAR_HINT, notGguf, unusable } from './file-errors';
import type { FileOptions } from './file-options';
import { cachedBlob, heldByPage } from './gguf-cache';
import { Download } from './gguf-download';

const MAGIC = [0x47, 0x47, 0x55, 0x46]; // "GGUF"

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

function startsWith(bytes: number[]): string {
  if (bytes[0] === 0x3c /* < */) return 'it starts like an HTML or XML document';
  if (bytes[0] === 0x7b /* { */) return 'it starts like a JSON document';
  return `it starts with the bytes ${bytes.map((byte) => byte.toString(16).padStart(2, '0')).join(' ')}, not "GGUF"`;
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
export async function keep(
  cache: Cache | undefined,
  file: Download,
  meter: Meter,
  options: FileOptions,
): Promise<Kept> {
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
