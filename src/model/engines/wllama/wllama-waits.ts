/**
 * Waits on llama.cpp's worker that cannot hang: a dead worker's calls never
 * settle, and wllama's stream rejects a promise it made before a stop.
 */

/** A wait on llama.cpp that ends when its worker is gone (a dead worker's calls never settle). */
export function orGone<T>(waiting: Promise<T>, gone: Promise<never> | undefined): Promise<T> {
  if (!gone) return waiting;
  waiting.catch(() => undefined); // lost the race: its rejection, if it ever comes, is nobody's
  return Promise.race([waiting, gone]);
}

/**
 * wllama's chunks for a reader that may stop early. Its iterator rejects a
 * promise it made before the stop with llama.cpp's abort error, so a stop by
 * return() (what for-await does when our generator is closed: a caller that
 * aborts or stops reading) would leave that error unhandled in the worker.
 * A stop here aborts the completion and reads on to its end, that error
 * included, so the next step starts after llama.cpp has let go of this one.
 */
export function readOnWhenStopped<T>(
  chunks: AsyncIterable<T>,
  abort: () => void,
  gone?: Promise<never>,
): AsyncIterable<T> {
  const iterator = chunks[Symbol.asyncIterator]();
  return {
    [Symbol.asyncIterator]: () => ({
      next: () => orGone(iterator.next(), gone),
      async return() {
        abort();
        try {
          while (!(await orGone(iterator.next(), gone)).done);
        } catch {
          // The abort error: the completion has ended (or llama.cpp's worker is gone).
        }
        return { done: true, value: undefined };
      },
    }),
  };
}
