/**
 * Why a value cannot cross to the worker, and where in it the culprit sits.
 * structuredClone is the test (it is what postMessage does); this only runs
 * after it failed, to turn "DataCloneError" into something a developer can fix.
 */
import { formatPath, type IssuePath } from './format-issues';

export interface Uncloneable {
  /** e.g. `content.items[2].el`; empty for the value itself. */
  path: string;
  /** e.g. `a DOM node (<div>)`, `a function (onClick)`, `a symbol`. */
  what: string;
}

function isCloneable(value: unknown): boolean {
  try {
    structuredClone(value);
    return true;
  } catch {
    return false;
  }
}

export function findUncloneable(value: unknown, path: IssuePath = []): Uncloneable | undefined {
  if (isCloneable(value)) return undefined;
  return locate(value, path, new Set());
}

function locate(value: unknown, path: IssuePath, seen: Set<object>): Uncloneable {
  const here = (what: string): Uncloneable => ({ path: formatPath(path), what });
  if (typeof value === 'function') return here(`a function${value.name ? ` (${value.name})` : ''}`);
  if (typeof value === 'symbol') return here(`a symbol${value.description ? ` (${value.description})` : ''}`);
  if (value === null || typeof value !== 'object') return here(`a ${typeof value}`);
  if (isDomNode(value)) return here(`a DOM node (${describeNode(value)})`);
  if (!seen.has(value)) {
    seen.add(value);
    // Look inside first: an object is usually uncloneable because of one of its fields.
    const entries: [string | number, unknown][] = Array.isArray(value)
      ? value.map((item, i) => [i, item])
      : Object.keys(value).map((key) => [key, (value as Record<string, unknown>)[key]]);
    for (const [key, child] of entries) {
      if (!isCloneable(child)) return locate(child, [...path, key], seen);
    }
  }
  const name = (value as { constructor?: { name?: string } }).constructor?.name;
  return here(name ? `a ${name}` : 'an object that cannot be copied');
}

function isDomNode(value: object): value is { nodeType: number; nodeName: string } {
  return typeof Node !== 'undefined'
    ? value instanceof Node
    : typeof (value as { nodeType?: unknown }).nodeType === 'number';
}

function describeNode(node: { nodeType: number; nodeName: string }): string {
  return node.nodeType === 1 ? `<${node.nodeName.toLowerCase()}>` : node.nodeName;
}
