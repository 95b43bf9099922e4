/**
 * Pairs patterns with items, each item taken by one pattern at most, as many
 * patterns paired as can be (Kuhn's augmenting paths: a pattern may take an
 * item from another that has a second choice). Patterns are paired in their
 * order and a paired one stays paired, so required patterns put first are
 * never displaced by optional ones after them. "milk" and "oat milk" both fit
 * "oat milk", and only this finds the pairing where both are matched.
 */
export function matchOneEach<I, P>(
  items: readonly I[],
  patterns: readonly P[],
  fits: (item: I, pattern: P) => boolean,
): (number | undefined)[] {
  const owner = new Array<number | undefined>(items.length);
  const pair = (p: number, seen: Set<number>): boolean => {
    for (const [i, item] of items.entries()) {
      if (seen.has(i) || !fits(item, patterns[p]!)) continue;
      seen.add(i);
      if (owner[i] === undefined || pair(owner[i]!, seen)) {
        owner[i] = p;
        return true;
      }
    }
    return false;
  };
  patterns.forEach((_, p) => pair(p, new Set()));
  return patterns.map((_, p) => {
    const i = owner.indexOf(p);
    return i === -1 ? undefined : i;
  });
}
