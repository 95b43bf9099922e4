/**
 * web-llm reports loading as `{ progress, text }`; the byte counts a progress
 * bar wants are only in the text ("Fetching param cache[3/24]: 120MB fetched.
 * 12% completed, …"). We read them back out: loaded bytes from the MB figure,
 * the total from it and the fraction. Approximate (whole MB), good enough for
 * "120 MB of 1 GB".
 */
import type { ModelProgress } from '../../engine';

const MB = 1024 * 1024;

export function parseProgress(report: { progress: number; text: string }): ModelProgress {
  const progress = Math.min(1, Math.max(0, Number.isFinite(report.progress) ? report.progress : 0));
  const out: ModelProgress = { progress, text: report.text };
  const match = /(\d+(?:\.\d+)?)\s*MB (?:fetched|loaded)/.exec(report.text);
  if (match) {
    const loaded = Number(match[1]) * MB;
    out.loadedBytes = loaded;
    const percent = /(\d+)% completed/.exec(report.text);
    const fraction = progress > 0 ? progress : percent ? Number(percent[1]) / 100 : 0;
    if (fraction > 0) out.totalBytes = Math.round(loaded / fraction);
  }
  return out;
}
