/** Promise helpers for a loop that must end promptly on abort. */
import { runAbortedError } from '../errors';

/** Settles with `promise`, or rejects with 'aborted' as soon as `signal` aborts; the promise is left to finish on its own. */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(runAbortedError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(runAbortedError());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
