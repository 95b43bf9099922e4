/**
 * comlink leaves calls pending forever when a worker dies (comlink #601).
 * The worker holds a Web Lock for as long as it lives; the browser releases
 * it the moment the worker is gone (terminated, crashed, out of memory), and
 * the page, queued on the same lock, learns of the death at once.
 */

/** Worker side: resolves once the lock is held; it is held until the worker is gone. */
export function holdLifeline(name: string): Promise<void> {
  return new Promise((held) => {
    void navigator.locks.request(name, () => {
      held();
      return new Promise<never>(() => undefined);
    });
  });
}

/** Page side, once the worker holds the lifeline: resolves when the worker holding it is gone. */
export async function lifelineEnded(name: string): Promise<void> {
  await navigator.locks.request(name, async () => undefined);
}
