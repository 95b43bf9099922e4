/**
 * Sets of Unicode code points as sorted, disjoint, inclusive ranges: what a
 * regular expression's character class or `.` matches, and what a string
 * syntax may write unescaped. Grammars are written per code point, as
 * xgrammar's EBNF character classes match code points.
 */
export type CharSet = readonly (readonly [number, number])[];

export const MAX_CODE_POINT = 0x10ffff;
export const ANY_CHAR: CharSet = [[0, MAX_CODE_POINT]];

/** Code points from ranges or single characters, in any order and overlapping. */
export function charSet(...parts: (readonly [number, number] | string)[]): CharSet {
  const ranges: [number, number][] = [];
  for (const part of parts) {
    if (typeof part !== 'string') ranges.push([part[0], part[1]]);
    else for (const ch of part) ranges.push([ch.codePointAt(0)!, ch.codePointAt(0)!]);
  }
  return normalize(ranges);
}

export function union(...sets: CharSet[]): CharSet {
  return normalize(sets.flatMap((set) => set.map(([lo, hi]): [number, number] => [lo, hi])));
}

export function complement(set: CharSet): CharSet {
  const out: [number, number][] = [];
  let next = 0;
  for (const [lo, hi] of set) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= MAX_CODE_POINT) out.push([next, MAX_CODE_POINT]);
  return out;
}

export function subtract(set: CharSet, removed: CharSet): CharSet {
  return complement(union(complement(set), removed));
}

export function intersect(a: CharSet, b: CharSet): CharSet {
  return complement(union(complement(a), complement(b)));
}

export function isEmpty(set: CharSet): boolean {
  return set.length === 0;
}

export function hasChar(set: CharSet, codePoint: number): boolean {
  return set.some(([lo, hi]) => lo <= codePoint && codePoint <= hi);
}

function normalize(ranges: [number, number][]): CharSet {
  ranges.sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const [lo, hi] of ranges) {
    const last = out[out.length - 1];
    if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}

/**
 * The set as an EBNF character class (xgrammar's dialect), negated when that
 * is shorter. Only printable ASCII appears as itself; every other code point
 * is written as \u or \U escape, so a grammar never holds a raw control
 * character or half of a surrogate pair.
 */
export function ebnfClass(set: CharSet): string {
  if (isEmpty(set)) throw new Error('an empty character set has no EBNF class');
  const inverse = complement(set);
  const negated = inverse.length < set.length && !isEmpty(inverse);
  return `[${negated ? '^' : ''}${(negated ? inverse : set).map(classRange).join('')}]`;
}

function classRange([lo, hi]: readonly [number, number]): string {
  if (lo === hi) return classChar(lo);
  if (hi === lo + 1) return classChar(lo) + classChar(hi);
  return `${classChar(lo)}-${classChar(hi)}`;
}

const CLASS_SPECIAL = new Set(['\\', ']', '[', '-', '^']);

function classChar(codePoint: number): string {
  const ch = String.fromCodePoint(codePoint);
  if (codePoint >= 0x20 && codePoint <= 0x7e) return CLASS_SPECIAL.has(ch) ? `\\${ch}` : ch;
  return codePoint <= 0xffff
    ? `\\u${codePoint.toString(16).padStart(4, '0')}`
    : `\\U${codePoint.toString(16).padStart(8, '0')}`;
}

/** Text as an EBNF string literal: printable ASCII as itself, the rest escaped. */
export function ebnfLiteral(text: string): string {
  let out = '"';
  for (const ch of text) {
    const codePoint = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (codePoint >= 0x20 && codePoint <= 0x7e) out += ch;
    else
      out +=
        codePoint <= 0xffff
          ? `\\u${codePoint.toString(16).padStart(4, '0')}`
          : `\\U${codePoint.toString(16).padStart(8, '0')}`;
  }
  return `${out}"`;
}
