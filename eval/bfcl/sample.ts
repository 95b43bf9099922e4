/**
 * A fixed stratified sample of a category, the same for the same seed on any
 * machine. Strata: how many functions the case offers (1, 2, 3–4, 5–9, 10+)
 * and how many calls its answer makes (none for irrelevance and relevance,
 * 1, 2, 3, 4+), so that a small sample still has the hard cases (many tools,
 * many calls) in their share. Each stratum gets one case first (when the
 * limit allows), the rest in proportion to its size (largest remainders);
 * within a stratum the cases are shuffled by the seed. The sample keeps the
 * file's order.
 */
import type { BfclCase } from './types';

export function stratumOf(testCase: BfclCase): string {
  const functions = testCase.functions.length;
  const calls = testCase.expected?.length ?? 0;
  const offered = functions <= 2 ? String(functions) : functions <= 4 ? '3-4' : functions <= 9 ? '5-9' : '10+';
  return `functions ${offered}, calls ${calls >= 4 ? '4+' : calls}`;
}

export function stratifiedSample(cases: readonly BfclCase[], limit: number, seed: string | number): BfclCase[] {
  if (limit >= cases.length) return [...cases];
  const strata = new Map<string, number[]>();
  cases.forEach((testCase, index) => {
    const key = stratumOf(testCase);
    strata.set(key, [...(strata.get(key) ?? []), index]);
  });
  const keys = [...strata.keys()].sort();
  const quotas = allocate(
    keys.map((key) => strata.get(key)!.length),
    limit,
  );
  const chosen = keys.flatMap((key, i) => shuffled(strata.get(key)!, `${seed}/${key}`).slice(0, quotas[i]));
  return chosen.sort((a, b) => a - b).map((index) => cases[index]!);
}

/** How many of each stratum: one each first if the limit allows, the rest by size, largest remainders first. */
function allocate(sizes: number[], limit: number): number[] {
  const base = limit >= sizes.length ? sizes.map(() => 1) : sizes.map(() => 0);
  const left = limit - base.reduce((sum, n) => sum + n, 0);
  const room = sizes.map((size, i) => size - base[i]!);
  const total = room.reduce((sum, n) => sum + n, 0);
  const exact = room.map((n) => (total ? (n * left) / total : 0));
  const quotas = exact.map((share, i) => base[i]! + Math.floor(share));
  let missing = limit - quotas.reduce((sum, n) => sum + n, 0);
  const byRemainder = exact
    .map((share, i) => ({ i, rest: share - Math.floor(share) }))
    .sort((a, b) => b.rest - a.rest || a.i - b.i);
  for (const { i } of byRemainder) {
    if (missing === 0) break;
    if (quotas[i]! < sizes[i]!) {
      quotas[i]! += 1;
      missing -= 1;
    }
  }
  return quotas;
}

/** Fisher–Yates with a small seeded generator (mulberry32 over an FNV-1a hash of the seed). */
export function shuffled<T>(items: readonly T[], seed: string): T[] {
  const random = mulberry32(fnv1a(seed));
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

function mulberry32(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
