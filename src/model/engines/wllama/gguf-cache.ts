/**
 * The Cache Storage bucket that keeps GGUF files between loads, keyed by URL:
 * one per origin, shared by the page and its workers, so a page can ask
 * whether a model is there, or remove it, with no engine loaded.
 */

/** The Cache Storage bucket that holds GGUF files, keyed by URL. */
export const GGUF_CACHE = 'inpage-agent-gguf';

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
export const heldByPage = (url: string) => /^(blob|data):/i.test(url);

export async function openCache(urls: readonly string[]): Promise<Cache | undefined> {
  if (urls.some(heldByPage)) return undefined;
  try {
    return await caches.open(GGUF_CACHE);
  } catch {
    return undefined; // no Cache Storage here (an opaque origin, a private mode that denies it): download every time
  }
}

export async function cachedBlob(cache: Cache, url: string): Promise<Blob | undefined> {
  const response = await cache.match(url);
  if (!response) return undefined;
  const blob = await response.blob();
  return blob.size > 0 ? blob : undefined;
}
