/**
 * How fast threads that work in lock-step go on this machine now. llama.cpp
 * splits each matrix operation between its threads, and they wait for one
 * another (spinning) before the next: one thread that waits for a busy core
 * holds all of them up. On an idle 2-core machine two threads read 1.7 times
 * and write 1.5 times as fast as one; with the cores busy, two wrote 2 to 7
 * times slower than one (docs/threads.md). The probe runs the same pattern
 * for a moment: `threads` workers each do a fixed piece of arithmetic (about
 * a millisecond, one of a small model's operations), then wait for the others
 * at a spinning barrier, and count the rounds.
 */

/** Arithmetic steps in one worker's part of a round: about a millisecond of a core in Chromium. */
const ROUND_WORK = 150_000;

/**
 * The worker: a barrier on a shared Int32Array ([arrived, generation, stop]). The last to arrive opens the next
 * round, or stops them all once its time is up; the others spin on the generation, as llama.cpp's threads do.
 * Each reports the rounds it saw after the first (which waits for every worker to start) and how long they took.
 */
const WORKER_SOURCE = `
onmessage = ({ data: { shared, threads, ms, work } }) => {
  const state = new Int32Array(shared);
  let x = 1, rounds = 0, first = 0, end = 0;
  for (;;) {
    for (let i = 0; i < work; i++) x = (Math.imul(x, 1103515245) + 12345) | 0;
    const generation = Atomics.load(state, 1);
    if (Atomics.add(state, 0, 1) === threads - 1) {
      Atomics.store(state, 0, 0);
      if (end && performance.now() > end) Atomics.store(state, 2, 1);
      Atomics.add(state, 1, 1);
    } else while (Atomics.load(state, 1) === generation);
    if (!first) { first = performance.now(); end = first + ms; continue; }
    rounds++;
    if (Atomics.load(state, 2)) break;
  }
  postMessage({ rounds, ms: performance.now() - first, x });
};`;

/** Whether threads can be probed here: shared memory (a cross-origin isolated page) and workers. */
export function canProbe(): boolean {
  return typeof SharedArrayBuffer === 'function' && typeof Worker === 'function' && globalThis.crossOriginIsolated;
}

/**
 * Rounds a second of `threads` workers in lock-step, measured for about `ms`; rejects if a worker cannot start
 * (a Content-Security-Policy without blob: workers) or the probe takes far longer than asked.
 */
export async function lockstepRate(threads: number, ms = 150): Promise<number> {
  const shared = new SharedArrayBuffer(3 * Int32Array.BYTES_PER_ELEMENT);
  const url = URL.createObjectURL(new Blob([WORKER_SOURCE], { type: 'text/javascript' }));
  const workers: Worker[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const reports = Array.from({ length: threads }, () => {
      const worker = new Worker(url);
      workers.push(worker);
      return new Promise<{ rounds: number; ms: number }>((resolve, reject) => {
        worker.onmessage = (event) => resolve(event.data);
        worker.onerror = (event) => reject(new Error(`the probe's worker failed: ${event.message}`));
        worker.postMessage({ shared, threads, ms, work: ROUND_WORK });
      });
    });
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the probe took over ${ms * 20} ms`)), ms * 20);
    });
    const [first] = await Promise.race([Promise.all(reports), late]);
    return (first!.rounds * 1000) / Math.max(1, first!.ms);
  } finally {
    clearTimeout(timer);
    for (const worker of workers) worker.terminate();
    URL.revokeObjectURL(url);
  }
}
