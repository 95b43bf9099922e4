/** Resolves to the promise's outcome, or fails the test if it has not settled in `ms` (a hang is the bug we guard against). */
export async function settleWithin<T>(promise: Promise<T>, ms: number): Promise<{ value?: T; error?: unknown }> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const sentinel = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`did not settle within ${ms / 1000} s: the engine hangs instead of failing`)),
      ms,
    );
  });
  try {
    return await Promise.race([
      promise.then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      ),
      sentinel,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
