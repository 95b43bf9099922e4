/**
 * `default`s, applied after validation and only to a valid instance.
 *
 * A default is an annotation: it says what an absent property means, not
 * what the model wrote, so it is never checked as if the model had written it
 * (a default that breaks its own minLength must not turn `{}` into an error).
 * The validator records, while it checks, which absent properties have a
 * default in a subschema that passed; a branch that failed (an anyOf option
 * that did not match, the condition of an `if`, a `not`) takes its records
 * back. When the whole instance is valid, its copy gets them: the first
 * default recorded for a property wins.
 */
import { refTarget, type Schema, type SchemaIndex } from './json-schema-index';
import { copyPlainData, isPlainObject } from './plain-copy';

export interface PendingDefault {
  /** The object in the model's arguments that lacks `key`. */
  target: object;
  key: string;
  value: unknown;
}

/** The default a property's schema gives, looking through a short chain of `$ref`s to where it is written. */
export function defaultOf(schema: Schema, index: SchemaIndex): { has: true; value: unknown } | { has: false } {
  let current: Schema | undefined = schema;
  for (let hops = 0; hops < 8 && isPlainObject(current); hops++) {
    if ('default' in current) return { has: true, value: current.default };
    if (typeof current.$ref !== 'string') break;
    current = refTarget(index, current);
  }
  return { has: false };
}

/** A fresh copy of the valid instance (see plain-copy.ts) with the recorded defaults filled in. */
export function withDefaults(value: unknown, pending: readonly PendingDefault[]): unknown {
  if (pending.length === 0) return copyPlainData(value);
  const byTarget = new Map<object, [string, unknown][]>();
  for (const { target, key, value: fallback } of pending) {
    let entries = byTarget.get(target);
    if (!entries) byTarget.set(target, (entries = []));
    if (!entries.some(([known]) => known === key)) entries.push([key, fallback]);
  }
  return copyPlainData(value, (original) => byTarget.get(original));
}
