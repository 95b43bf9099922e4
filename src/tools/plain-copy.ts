/**
 * A fresh copy of argument-like data in which no key can reach a prototype.
 *
 * Decision: the keys `__proto__`, `constructor` and `prototype` are DROPPED
 * from every plain object (at any depth), not kept as own data properties.
 * Keeping them as own properties would be harmless to us, but a tool's own
 * code commonly deep-merges its arguments into page state, and a naive merge
 * walks `constructor.prototype` or assigns `__proto__` straight into
 * Object.prototype. Arguments come from a language model; no legitimate tool
 * call needs those three names, so they never reach `execute`.
 *
 * Plain objects and arrays are copied; anything else (Date, Map, Blob, typed
 * arrays arriving through structured clone) is passed through as it is.
 */
const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

export function isForbiddenKey(key: string): boolean {
  return FORBIDDEN_KEYS.has(key);
}

/** True for `{}`-like objects: prototype Object.prototype or null. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Keys to add to the copy of an object where it lacks them (the validator's defaults). */
export type MissingKeys = (original: Record<string, unknown>) => Iterable<readonly [string, unknown]> | undefined;

export function copyPlainData<T>(value: T, addMissing?: MissingKeys): T {
  return copy(value, new Map(), addMissing) as T;
}

function copy(value: unknown, seen: Map<object, unknown>, addMissing: MissingKeys | undefined): unknown {
  if (Array.isArray(value)) {
    const known = seen.get(value);
    if (known) return known;
    const out: unknown[] = [];
    seen.set(value, out);
    for (const item of value) out.push(copy(item, seen, addMissing));
    return out;
  }
  if (isPlainObject(value)) {
    const known = seen.get(value);
    if (known) return known;
    // A normal object (not null-prototype) so that tool code may call
    // args.hasOwnProperty and friends; safe because forbidden keys never get in.
    const out: Record<string, unknown> = {};
    seen.set(value, out);
    for (const key of Object.keys(value)) {
      if (isForbiddenKey(key)) continue;
      out[key] = copy(value[key], seen, addMissing);
    }
    for (const [key, extra] of addMissing?.(value) ?? []) {
      if (isForbiddenKey(key) || Object.prototype.hasOwnProperty.call(out, key)) continue;
      // A fresh copy each time: two fields defaulted from one schema value must not share it.
      out[key] = copyPlainData(extra);
    }
    return out;
  }
  return value;
}
