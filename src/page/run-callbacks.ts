/** A callback option may be one function or a list; the first that returns something wins (after ADK). */
export async function runCallbacks<A extends unknown[]>(
  callbacks: ((...args: A) => unknown) | ((...args: A) => unknown)[] | undefined,
  args: A,
): Promise<unknown> {
  if (!callbacks) return undefined;
  for (const callback of Array.isArray(callbacks) ? callbacks : [callbacks]) {
    const result = await callback(...args);
    if (result !== undefined) return result;
  }
  return undefined;
}
