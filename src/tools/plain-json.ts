/**
 * Whether a value can go into a model's prompt as JSON: no cycle, no BigInt.
 * Structured cloning carries both across the worker boundary and into
 * IndexedDB without complaint, and JSON.stringify then fails on every later
 * request; so values from page callbacks are checked where they enter.
 */
import { formatPath, type IssuePath } from './format-issues';

/** Where and why a value is not plain JSON data; undefined when it is. */
export function notPlainJson(value: unknown): string | undefined {
  const ancestors = new Set<object>();
  const visit = (current: unknown, path: IssuePath): string | undefined => {
    if (typeof current === 'bigint') return `${formatPath(path) || 'the value'} is a BigInt`;
    if (typeof current !== 'object' || current === null) return undefined;
    // Shared references are fine; only a value inside itself is a cycle.
    if (ancestors.has(current)) return `${formatPath(path) || 'the value'} refers back to itself (a cycle)`;
    ancestors.add(current);
    try {
      const entries = Array.isArray(current) ? current.map((item, i) => [i, item] as const) : Object.entries(current);
      for (const [key, item] of entries) {
        const problem = visit(item, [...path, key]);
        if (problem) return problem;
      }
    } finally {
      ancestors.delete(current);
    }
    return undefined;
  };
  return visit(value, []);
}
