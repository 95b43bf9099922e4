/**
 * How a model's files and their sizes are named in what the page is told
 * (progress and errors): by file name, not by URL, and in MB or GB.
 */

export function nameOf(url: string): string {
  return decodeURIComponent(new URL(url, 'http://x/').pathname.split('/').pop() || url);
}

export function describe(urls: readonly string[]): string {
  return urls.length === 1 ? nameOf(urls[0]) : `${nameOf(urls[0])} and ${urls.length - 1} more parts`;
}

export function mb(bytes: number): string {
  return bytes >= 2 ** 30 ? `${(bytes / 2 ** 30).toFixed(1)} GB` : `${Math.round(bytes / 2 ** 20)} MB`;
}

/** A size as a person reads it: bytes under a megabyte. */
export function amount(bytes: number): string {
  return bytes < 2 ** 20 ? `${bytes} bytes` : mb(bytes);
}
