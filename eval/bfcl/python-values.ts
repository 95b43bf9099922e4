/**
 * JSON values as BFCL's checker sees them in Python after json.loads: their
 * types, Python's `==` and `in`, and BFCL's string normalization.
 *
 * One thing cannot be carried over: once parsed, a JSON number in JavaScript
 * no longer says whether it was written `2` or `2.0`. A whole number is read
 * as an int unless a float is expected there, where BFCL turns an int into a
 * float anyway (at the top level; it is stricter inside lists, which we are not).
 */

export type PyType = 'str' | 'int' | 'float' | 'bool' | 'list' | 'dict' | 'NoneType';

/** Python's type of a parsed JSON value; `expected` decides whole numbers (see above). */
export function pyType(value: unknown, expected?: PyType): PyType {
  if (typeof value === 'string') return 'str';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) && expected !== 'float' ? 'int' : 'float';
  if (Array.isArray(value)) return 'list';
  if (value === null || value === undefined) return 'NoneType';
  return 'dict';
}

export function isDict(value: unknown): value is Record<string, unknown> {
  return pyType(value) === 'dict';
}

/** Python's `==` on JSON values: `True == 1` and `1 == 1.0`; lists item by item; dicts by keys and values. */
export function pyEquals(a: unknown, b: unknown): boolean {
  const numeric = (v: unknown) => (typeof v === 'boolean' ? Number(v) : v);
  if ((typeof a === 'number' || typeof a === 'boolean') && (typeof b === 'number' || typeof b === 'boolean'))
    return numeric(a) === numeric(b);
  if (Array.isArray(a) || Array.isArray(b))
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => pyEquals(x, b[i]));
  if (isDict(a) || isDict(b)) {
    if (!isDict(a) || !isDict(b)) return false;
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && pyEquals(a[k], b[k]));
  }
  return (a ?? null) === (b ?? null);
}

/** Python's `value in values`. */
export function pyIn(value: unknown, values: readonly unknown[]): boolean {
  return values.some((candidate) => pyEquals(value, candidate));
}

/**
 * BFCL's standardize_string: spaces and `,./-_*^` removed, lower case, single
 * quotes made double. So "April 1, 2024" and "april 1 2024" are one answer.
 */
export function standardize(text: string): string {
  return text
    .replace(/[ ,./\-_*^]/g, '')
    .toLowerCase()
    .replace(/'/g, '"');
}

/** A value for a message: JSON, short. */
export function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 120 ? `${text.slice(0, 117)}…` : text;
}
