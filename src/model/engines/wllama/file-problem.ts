/**
 * The check a stored file passes before llama.cpp reads it, whether it was
 * just downloaded or found in the cache: its header, then its SHA-256 when
 * the page gave one.
 */
import { DOWNLOAD_SHARE, type ProgressListener } from './download-progress';
import { mb, nameOf } from './describe-files';
import { ggufProblem } from './gguf-check';

/**
 * What is wrong with a stored file, or undefined: its header (a few MB read), then its SHA-256 when one is given.
 * crypto.subtle.digest takes the whole file at once, so hashing holds it in memory for a moment: one file at a
 * time, before llama.cpp reads any, and only for a page that gave a hash. The cost, in Chromium 156 on a busy
 * 2-core machine: 200 MiB read back from the cache in 150–290 ms and hashed in 260–350 ms, so about 1.5 s of
 * each load of a 491 MB model (checked again from the cache too: a copy there may be an older, bad one).
 */
export async function fileProblem(
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
