/**
 * A list's grammar: a tuple's items in order (2020-12's prefixItems, or
 * draft-07's items list with additionalItems), then more only where the
 * schema says which (xgrammar's strict mode), within minItems and maxItems up
 * to COUNT_LIMIT.
 */
import type { GrammarBuild } from './grammar-build';
import { COUNT_LIMIT, repeat } from './grammar-limits';
import { VALUE_FORMS } from './value-syntax';

export function arrayGrammar(build: GrammarBuild, schema: Record<string, unknown>, path: string): string | undefined {
  const tuple = Array.isArray(schema.prefixItems)
    ? { prefix: schema.prefixItems as unknown[], rest: schema.items }
    : Array.isArray(schema.items)
      ? { prefix: schema.items as unknown[], rest: schema.additionalItems }
      : { prefix: [], rest: schema.items };
  let min = typeof schema.minItems === 'number' ? schema.minItems : 0;
  let max = typeof schema.maxItems === 'number' ? schema.maxItems : Infinity;
  if (max !== Infinity && max > COUNT_LIMIT) {
    build.loosen(path, `maxItems ${max}`);
    max = Infinity;
  }
  if (min > COUNT_LIMIT) {
    build.loosen(path, `minItems ${min}`);
    min = COUNT_LIMIT;
  }
  const prefix = build.inside(() => tuple.prefix.slice(0, max).map((item, i) => build.value(item, `${path}/${i}`)));
  const restSchema = tuple.prefix.length && tuple.rest === undefined ? false : (tuple.rest ?? true);
  const rest = restSchema === false ? undefined : build.inside(() => build.value(restSchema, `${path}/items`));
  const { separator: sep, list } = VALUE_FORMS[build.values];
  const bracketed = (body: string) => build.rule(list(body));
  // From the last element back: what may follow element i (1-based count written so far).
  const restCount = { min: Math.max(0, min - prefix.length), max: max - prefix.length };
  let tail =
    rest === undefined || restCount.max <= 0
      ? restCount.min > 0
        ? undefined
        : '""'
      : repeat(`${sep} ${rest}`, restCount.min, restCount.max);
  if (prefix.length === 0) {
    if (rest === undefined) return min > 0 ? undefined : bracketed('""');
    const body =
      min === 0
        ? max === 0
          ? '""'
          : `(${rest} ${repeat(`${sep} ${rest}`, 0, max - 1)})?`
        : `${rest} ${repeat(`${sep} ${rest}`, min - 1, max - 1)}`;
    return bracketed(body);
  }
  for (let i = prefix.length - 1; i >= 0; i--) {
    const item = prefix[i];
    if (item === undefined || tail === undefined) {
      if (i < min) return undefined; // a required element cannot be written
      tail = '""';
      continue;
    }
    const element = i === 0 ? `${item} ${tail}` : `${sep} ${item} ${tail}`;
    tail = build.rule(i >= min ? `(${element})?` : element);
  }
  return bracketed(tail!);
}
