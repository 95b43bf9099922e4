/**
 * Whether a value can be written as JSON, and within how many characters,
 * found without writing it.
 *
 * Structured cloning carries BigInt, Map, Set, typed arrays, cycles and
 * sparse arrays across the worker boundary and into IndexedDB without
 * complaint. JSON.stringify then throws, writes `{}` for a Map, or builds
 * hundreds of megabytes from a clone of a few bytes (`a[1e8] = 'x'`), every
 * time a prompt or an export writes the value. So values are measured where
 * they enter a session: one walk in JSON's order, each step adding at least
 * one character, stopped at the cap. The walk costs at most the cap, and a
 * hole is counted as the `null` JSON writes, never made.
 */
import { formatPath, type IssuePath } from './format-issues';
import { isPlainObject } from './plain-copy';

/**
 * The most characters of JSON one part of a tool result (its content, its
 * artifact, its state delta) may take: about 250,000 tokens, more than any
 * local model's context window holds.
 */
export const MAX_RESULT_CHARS = 1_000_000;

/** Deeper than this is no data a tool means to return, and deep enough to overflow a writer's stack. */
export const MAX_DEPTH = 256;

export type JsonProblem =
  /** `chars` is a lower bound: the walk stopped once past the cap. */
  { kind: 'too-large'; chars: number } | { kind: 'not-json'; path: string; what: string; fix: string };

/** Why `value` (named `root` in messages: `content.rows[2]`) cannot be written as JSON within `cap` characters; undefined when it can. */
export function jsonProblem(value: unknown, root?: string, cap = MAX_RESULT_CHARS): JsonProblem | undefined {
  let chars = 0;
  const ancestors = new Set<object>();
  const add = (n: number) => {
    chars += n;
    if (chars > cap) throw new Stop({ kind: 'too-large', chars });
  };
  // One path, pushed and popped as the walk goes: formatted only when something is refused.
  const path: IssuePath = [];
  const refuse = (what: string, fix: string): never => {
    throw new Stop({ kind: 'not-json', path: joinPath(root ?? 'the value', formatPath(path)), what, fix });
  };
  const visitAt = (key: string | number, item: unknown) => {
    path.push(key);
    visit(item);
    path.pop();
  };

  const visit = (current: unknown): void => {
    switch (typeof current) {
      case 'string':
        // Past the cap at any rate: do not make its quoted copy.
        if (chars + current.length + 2 > cap) add(current.length + 2);
        return add(JSON.stringify(current).length);
      case 'number':
        return add(Number.isFinite(current) ? String(current).length : 4);
      case 'boolean':
        return add(current ? 4 : 5);
      case 'bigint':
        return refuse('a BigInt', 'write it as a string (String(value)) or, if it is small, as a number');
      case 'undefined':
      case 'function':
      case 'symbol':
        // Only where JSON writes null (the value itself, an array item); an object's such keys are skipped.
        return add(4);
    }
    if (current === null) return add(4);
    const object = current as object;
    if (path.length > MAX_DEPTH) refuse(`nested more than ${MAX_DEPTH} levels deep`, 'flatten it');
    if (object instanceof Date) return add(JSON.stringify(object).length);
    if (ancestors.has(object)) refuse('the object that contains it (a cycle)', 'return a copy without the cycle');
    ancestors.add(object);
    if (Array.isArray(object)) visitArray(object);
    else if (isPlainObject(object)) visitObject(object);
    else refuse(...notJsonData(object));
    ancestors.delete(object);
  };

  const visitArray = (array: readonly unknown[]) => {
    // Brackets and commas, and at least one character an item, before a single item is read.
    add(2 + Math.max(0, array.length - 1));
    if (chars + array.length > cap) add(array.length);
    for (let i = 0; i < array.length; i++) {
      if (i in array) visitAt(i, array[i]);
      else add(4);
    }
  };

  const visitObject = (object: Record<string, unknown>) => {
    add(2);
    let first = true;
    for (const key of Object.keys(object)) {
      const item = object[key];
      if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
      add((first ? 0 : 1) + JSON.stringify(key).length + 1);
      first = false;
      visitAt(key, item);
    }
  };

  try {
    visit(value);
    return undefined;
  } catch (error) {
    if (error instanceof Stop) return error.problem;
    throw error;
  }
}

/** What a problem says, after "<subject> " (e.g. `Tool "x" returned something JSON cannot write: …`). */
export function describeJsonProblem(problem: JsonProblem, cap = MAX_RESULT_CHARS): string {
  if (problem.kind === 'too-large') return `more than ${cap.toLocaleString('en')} characters as JSON`;
  return `${problem.path} is ${problem.what}; ${problem.fix}`;
}

/** `content` and `rows[2].id` make `content.rows[2].id`; the root is written as given (it may say `the result of call "x"`). */
function joinPath(root: string, rest: string): string {
  if (!rest) return root;
  return rest.startsWith('[') ? `${root}${rest}` : `${root}.${rest}`;
}

/** What a value JSON cannot write is, and what to return instead. */
function notJsonData(value: object): [what: string, fix: string] {
  const name = Object.prototype.toString.call(value).slice(8, -1);
  if (value instanceof Map) return ['a Map', 'use Object.fromEntries(map) for string keys, or [...map] for pairs'];
  if (value instanceof Set) return ['a Set', 'use an array ([...set])'];
  if (value instanceof Error) return ['an Error', 'return its message (error.message)'];
  if (value instanceof RegExp) return ['a RegExp', 'return its text (regexp.source)'];
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer)
    return [article(name), 'return a few numbers as an array (Array.from(bytes)), or keep binary data out of results'];
  if (typeof Blob !== 'undefined' && value instanceof Blob)
    return [article(name), 'keep binary data out of results (return its size, type or a URL)'];
  return [article(name), 'return plain data: strings, numbers, booleans, null, arrays, plain objects, Dates'];
}

function article(name: string): string {
  return /^[AEIO]/.test(name) ? `an ${name}` : `a ${name}`;
}

class Stop {
  constructor(readonly problem: JsonProblem) {}
}
