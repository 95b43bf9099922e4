/**
 * What the page is told while a model's files download: bytes so far, the
 * speed and the time left, as a share of the whole load (reading the files
 * into llama.cpp is the rest).
 */
import type { ModelProgress } from '../../engine';
import { mb } from './describe-files';

export type ProgressListener = (progress: ModelProgress) => void;

/** Share of the whole load the download stands for; reading the files into llama.cpp is the rest. */
export const DOWNLOAD_SHARE = 0.9;

/** Bytes so far against the total, with the speed since the first bytes and the time left at that speed. */
export class Meter {
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
