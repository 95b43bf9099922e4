/**
 * One model-readable message for every way arguments can be wrong.
 *
 * Both validators (zod on the page, JSON Schema in the worker) report issues
 * as `{ path, message }` where `message` is the phrase that follows the field,
 * so a model sees the same words whichever side caught the mistake:
 *
 *   add_todo: "text" is required; "due" must be a string; "items[2].qty" must be at least 1
 *
 * Every failing path is listed, so a model can fix them all in one retry.
 */
import type { z } from './zod';

export type IssuePath = (string | number)[];

export interface ValidationIssue {
  path: IssuePath;
  /** The phrase after the field: 'is required', 'must be a string', … */
  message: string;
}

/** More than this and a small model's context fills with one error. */
const MAX_LISTED = 50;

export function formatIssues(toolName: string, issues: readonly ValidationIssue[]): string {
  const seen = new Set<string>();
  const parts: string[] = [];
  for (const issue of issues) {
    const part = `${subject(issue.path)} ${issue.message}`;
    if (seen.has(part)) continue;
    seen.add(part);
    parts.push(part);
  }
  if (parts.length === 0) parts.push('the arguments are invalid');
  const listed = parts.slice(0, MAX_LISTED);
  if (parts.length > MAX_LISTED) listed.push(`and ${parts.length - MAX_LISTED} more problems`);
  return `${toolName}: ${listed.join('; ')}`;
}

/** `items[2].qty`, `["odd key"].x`; the empty path is the arguments object itself. */
export function formatPath(path: IssuePath): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (/^[A-Za-z_$][A-Za-z0-9_$-]*$/.test(segment)) out += out === '' ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

function subject(path: IssuePath): string {
  return path.length === 0 ? 'the arguments' : `"${formatPath(path)}"`;
}

// ---- phrases shared by both validators --------------------------------------

const TYPE_NOUNS: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  int: 'an integer',
  boolean: 'a boolean (true or false)',
  object: 'an object',
  array: 'an array',
  null: 'null',
  bigint: 'an integer',
  date: 'a date',
  undefined: 'left out',
};

export function typeNoun(type: string): string {
  return TYPE_NOUNS[type] ?? `a ${type}`;
}

/** "a string or a number", "a string, a number or null". */
export function orList(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

export function quoteValue(value: unknown): string {
  try {
    const text = JSON.stringify(value);
    if (text === undefined) return String(value);
    return text.length > 60 ? `${text.slice(0, 57)}…` : text;
  } catch {
    return String(value);
  }
}

export function oneOfValues(values: readonly unknown[]): string {
  return values.length === 1
    ? `must be ${quoteValue(values[0])}`
    : `must be one of ${values.map(quoteValue).join(', ')}`;
}

export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

const FORMAT_NOUNS: Record<string, string> = {
  'date-time': 'date-time in ISO 8601 form, e.g. 2025-01-31T09:00:00Z',
  datetime: 'date-time in ISO 8601 form, e.g. 2025-01-31T09:00:00Z',
  date: 'date in YYYY-MM-DD form',
  time: 'time in HH:MM:SS form',
  email: 'email address',
  uri: 'absolute URI, e.g. https://example.com/page',
  url: 'URL, e.g. https://example.com/page',
  uuid: 'UUID, e.g. 123e4567-e89b-12d3-a456-426614174000',
  guid: 'UUID, e.g. 123e4567-e89b-12d3-a456-426614174000',
  ipv4: 'IPv4 address',
  ipv6: 'IPv6 address',
  hostname: 'host name',
};

export function formatPhrase(format: string): string {
  const noun = FORMAT_NOUNS[format];
  return noun ? `must be a valid ${noun}` : `must be in "${format}" format`;
}

// ---- zod --------------------------------------------------------------------

type ZodIssue = z.core.$ZodIssue;

/**
 * Zod's issues in our phrasing. `input` is what was validated: zod 4 does not
 * keep the received value, and "is required" needs to know a key was absent.
 */
export function issuesFromZod(issues: readonly ZodIssue[], input: unknown): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  for (const issue of issues) collectZodIssue(issue, [], input, out);
  return out;
}

function collectZodIssue(issue: ZodIssue, prefix: IssuePath, input: unknown, out: ValidationIssue[]): void {
  const path = [...prefix, ...(issue.path as IssuePath)];
  switch (issue.code) {
    case 'invalid_type': {
      const missing = valueAt(input, path) === undefined;
      out.push({
        path,
        message: withAuthorNote(missing ? 'is required' : `must be ${typeNoun(issue.expected)}`, issue),
      });
      return;
    }
    case 'too_small':
    case 'too_big':
      out.push({ path, message: withAuthorNote(sizePhrase(issue), issue) });
      return;
    case 'invalid_format':
      out.push({ path, message: withAuthorNote(zodFormatPhrase(issue), issue) });
      return;
    case 'not_multiple_of':
      out.push({ path, message: withAuthorNote(`must be a multiple of ${String(issue.divisor)}`, issue) });
      return;
    case 'invalid_value':
      out.push({ path, message: withAuthorNote(oneOfValues(issue.values), issue) });
      return;
    case 'unrecognized_keys':
      for (const key of issue.keys) out.push({ path: [...path, key], message: 'is not an allowed field' });
      return;
    case 'invalid_union':
      collectUnion(issue, path, input, out);
      return;
    case 'invalid_key':
      for (const inner of issue.issues) {
        const nested: ValidationIssue[] = [];
        collectZodIssue(inner, [], undefined, nested);
        for (const n of nested) out.push({ path, message: `has a key that ${n.message}` });
      }
      return;
    case 'invalid_element':
      for (const inner of issue.issues) collectZodIssue(inner, [...path, String(issue.key)], input, out);
      return;
    default:
      out.push({ path, message: `is invalid: ${issue.message}` });
  }
}

function collectUnion(
  issue: Extract<ZodIssue, { code: 'invalid_union' }>,
  path: IssuePath,
  input: unknown,
  out: ValidationIssue[],
): void {
  const extra = issue as { note?: string; options?: unknown[] };
  if (issue.errors.length === 0) {
    // A discriminated union whose discriminator matched no option.
    if (Array.isArray(extra.options) && extra.options.length > 0) {
      out.push({ path, message: valueAt(input, path) === undefined ? 'is required' : oneOfValues(extra.options) });
    } else {
      out.push({ path, message: `is invalid: ${issue.message}` });
    }
    return;
  }
  // Every branch failed at its root on the kind of value: one combined phrase.
  const nouns: string[] = [];
  const values: unknown[] = [];
  const allAtRoot = issue.errors.every(
    (branch) =>
      branch.length === 1 &&
      branch[0]!.path.length === 0 &&
      (branch[0]!.code === 'invalid_type' || branch[0]!.code === 'invalid_value'),
  );
  if (allAtRoot) {
    if (valueAt(input, path) === undefined) {
      out.push({ path, message: 'is required' });
      return;
    }
    for (const branch of issue.errors) {
      const only = branch[0]!;
      if (only.code === 'invalid_type') nouns.push(typeNoun(only.expected));
      else if (only.code === 'invalid_value') values.push(...only.values);
    }
    const choices = [...new Set(nouns)];
    if (values.length)
      choices.push(values.length === 1 ? quoteValue(values[0]) : `one of ${values.map(quoteValue).join(', ')}`);
    out.push({ path, message: `must be ${orList(choices)}` });
    return;
  }
  // Otherwise the closest branch (fewest issues) says best what to fix.
  let best = issue.errors[0]!;
  for (const branch of issue.errors) if (branch.length < best.length) best = branch;
  for (const inner of best) collectZodIssue(inner, path, input, out);
}

function sizePhrase(issue: Extract<ZodIssue, { code: 'too_small' | 'too_big' }>): string {
  const small = issue.code === 'too_small';
  const bound = small
    ? (issue as { minimum: number | bigint }).minimum
    : (issue as { maximum: number | bigint }).maximum;
  const n = Number(bound);
  const exact = (issue as { exact?: boolean }).exact === true;
  const inclusive = issue.inclusive !== false;
  switch (issue.origin) {
    case 'string':
      if (exact) return `must be exactly ${plural(n, 'character')} long`;
      return `must be ${small ? 'at least' : 'at most'} ${plural(n, 'character')} long`;
    case 'array':
    case 'set':
      if (exact) return `must have exactly ${plural(n, 'item')}`;
      return `must have ${small ? 'at least' : 'at most'} ${plural(n, 'item')}`;
    case 'file':
      return `must be ${small ? 'at least' : 'at most'} ${plural(n, 'byte')}`;
    case 'date':
      return `must be ${small ? 'on or after' : 'on or before'} ${new Date(n).toISOString()}`;
    default:
      if (inclusive) return `must be ${small ? 'at least' : 'at most'} ${String(bound)}`;
      return `must be ${small ? 'greater than' : 'less than'} ${String(bound)}`;
  }
}

function zodFormatPhrase(issue: Extract<ZodIssue, { code: 'invalid_format' }>): string {
  const extra = issue as { prefix?: string; suffix?: string; includes?: string; pattern?: string };
  switch (issue.format) {
    case 'regex':
      return `must match the pattern ${extra.pattern ?? ''}`.trimEnd();
    case 'starts_with':
      return `must start with ${quoteValue(extra.prefix)}`;
    case 'ends_with':
      return `must end with ${quoteValue(extra.suffix)}`;
    case 'includes':
      return `must contain ${quoteValue(extra.includes)}`;
    case 'lowercase':
      return 'must be in lower case';
    case 'uppercase':
      return 'must be in upper case';
    default:
      return formatPhrase(issue.format);
  }
}

/** Zod's own English defaults say less than our phrase; an author's message says more. */
function withAuthorNote(phrase: string, issue: ZodIssue): string {
  const message = issue.message;
  if (!message || /^(Invalid|Too (small|big)|Unrecognized key)/.test(message)) return phrase;
  return `${phrase} (${message})`;
}

function valueAt(input: unknown, path: IssuePath): unknown {
  let current = input;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return undefined;
    if (!Object.prototype.hasOwnProperty.call(current, segment)) return undefined;
    current = (current as Record<string | number, unknown>)[segment];
  }
  return current;
}
