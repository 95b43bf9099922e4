/**
 * The thread count llama.cpp loads with when the page asked for none: the
 * default (wllama-environment.ts) where its threads in lock-step would go
 * faster than one thread on this machine now, else one (lockstep-probe.ts).
 * Measured just before the load, since a page cannot see the visitor's load
 * and the count is fixed for as long as the model stays loaded. A page's
 * model.threads is never second-guessed.
 */
import { canProbe, lockstepRate } from './lockstep-probe';

/**
 * How much faster than one thread the probe's threads together must be. On an idle machine the probe's two
 * threads are about 2x one (pure arithmetic), where llama.cpp's are 1.5-1.7x; below this, llama.cpp's would
 * be no faster than one thread, or slower.
 */
const MIN_SPEEDUP = 1.25;

/** What the probe measured: rounds a second on one thread and on `threads` in lock-step. */
export interface LockstepRates {
  one: number;
  many: number;
  threads: number;
}

/** The count for these rates, and what the page hears when it is fewer than it could have had. */
export function threadsForRates({ one, many, threads }: LockstepRates): { threads: number; notice?: string } {
  const speedup = (threads * many) / Math.max(one, Number.MIN_VALUE);
  if (speedup >= MIN_SPEEDUP) return { threads };
  return {
    threads: 1,
    notice:
      `llama.cpp runs on one thread, not ${threads}: this device's cores are busy now, and ${threads} threads in ` +
      `lock-step, as llama.cpp's work, went ${speedup.toFixed(2)}x as fast as one when measured before the load ` +
      `(it needs ${MIN_SPEEDUP}x). Set model.threads to choose the count.`,
  };
}

/**
 * `allowed` threads, or one where the probe finds them slower together; `allowed` as it is when the page
 * asked for a count, when one is all there is, or where the probe cannot run or fails.
 */
export async function measuredThreads(
  allowed: number,
  asked: number | undefined,
  probe: (threads: number) => Promise<number> = lockstepRate,
): Promise<{ threads: number; notice?: string; rates?: LockstepRates }> {
  if (asked !== undefined || allowed <= 1 || !canProbe()) return { threads: allowed };
  try {
    const one = await probe(1);
    const many = await probe(allowed);
    const rates = { one, many, threads: allowed };
    return { ...threadsForRates(rates), rates };
  } catch {
    return { threads: allowed };
  }
}
