/**
 * What a load asks of the steps that bring a model's files: progress, abort,
 * the stall limit, the hashes to check, and whether the cache may be read.
 */
import type { ProgressListener } from './download-progress';

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
