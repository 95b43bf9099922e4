/**
 * What every benchmark file shares: timing with warm-up, medians and p95s, and
 * the row shape the runner prints. Figures are medians beside a peer measured
 * in the same run; nothing here asserts a time.
 */
export interface BenchRow {
  /** e.g. 'session', 'toolkit', 'loop', 'bundle' */
  group: string;
  name: string;
  median: number;
  p95?: number;
  unit: 'ms' | 'µs' | 'bytes' | 'tokens' | '%';
  /** A peer measured in the same run, for a ratio. */
  peer?: { name: string; median: number };
  /** The goal stated in the issue, e.g. '< 50 ms'. */
  target?: string;
  note?: string;
}

export interface Measured {
  median: number;
  p95: number;
  samples: number[];
}

export function summarize(samples: number[]): Measured {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { median: at(0.5), p95: at(0.95), samples };
}

/** Runs `fn` `warmup` times untimed, then `iterations` times timed (ms each). */
export async function measure(
  fn: () => unknown | Promise<unknown>,
  options: { iterations: number; warmup?: number },
): Promise<Measured> {
  for (let i = 0; i < (options.warmup ?? Math.min(5, options.iterations)); i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < options.iterations; i++) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  return summarize(samples);
}

/** An option given in the bench page's address (`?samples=5&only=wllama`), or null. */
export function pageOption(name: string): string | null {
  return new URLSearchParams(location.search).get(name);
}

/** A benchmark file's default export. */
export type BenchSuite = () => Promise<BenchRow[]>;
