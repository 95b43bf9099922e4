/**
 * A JSON Schema validator for tool arguments, written as a plain interpreter.
 *
 * Why our own: common validators compile schemas with `new Function`, which a
 * page with a strict Content-Security-Policy forbids, and the worker must
 * check a model's call before any page code runs. This one walks the schema
 * at each call; argument objects are small, so that costs microseconds.
 *
 * Keywords (draft 2020-12 and draft-07, as MCP servers and z.toJSONSchema
 * emit them): type (one or a list; integer; null), nullable (OpenAPI),
 * properties, required, additionalProperties, patternProperties,
 * propertyNames, min/maxProperties, dependentRequired, items (schema or
 * draft-07 tuple), prefixItems, additionalItems, contains, min/maxItems,
 * uniqueItems, enum, const, default, minimum, maximum, exclusiveMinimum,
 * exclusiveMaximum (number or draft-04 boolean), multipleOf, minLength,
 * maxLength (in code points), pattern, format (date-time, date, time, email,
 * uri/url, uuid, ipv4; lenient, unknown formats pass), anyOf, oneOf, allOf,
 * not, if/then/else, $ref to "#", "#/$defs/…", "#/definitions/…" or any
 * local JSON pointer. Other keywords are ignored, as the spec asks.
 *
 * The result's `value` is a fresh copy (see plain-copy.ts: `__proto__`,
 * `constructor` and `prototype` keys are dropped) with `default`s filled in
 * for absent properties. The input is never modified.
 */
import type { JsonSchema } from './declaration';
import {
  formatPhrase,
  oneOfValues,
  orList,
  plural,
  quoteValue,
  typeNoun,
  type IssuePath,
  type ValidationIssue,
} from './format-issues';
import { copyPlainData, isForbiddenKey, isPlainObject } from './plain-copy';

export type JsonSchemaValidation = { ok: true; value: unknown } | { ok: false; issues: ValidationIssue[] };

type Schema = JsonSchema | boolean;

interface Walk {
  root: Schema;
  depth: number;
}

/** Deeper than this is a $ref loop or hostile input, not a tool's arguments. */
const MAX_DEPTH = 256;

export function validateJsonSchema(schema: Schema, value: unknown): JsonSchemaValidation {
  const issues: ValidationIssue[] = [];
  const copy = copyPlainData(value);
  const result = check(schema, copy, [], { root: schema, depth: 0 }, issues);
  return issues.length === 0 ? { ok: true, value: result } : { ok: false, issues };
}

/** The schema a local "$ref" points to, or undefined when it points nowhere. */
export function resolveRef(root: Schema, ref: string): Schema | undefined {
  if (ref === '#' || ref === '') return root;
  if (!ref.startsWith('#/')) return undefined;
  let current: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (current === null || typeof current !== 'object' || !Object.prototype.hasOwnProperty.call(current, key))
      return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return typeof current === 'boolean' || isPlainObject(current) ? (current as Schema) : undefined;
}

/** Compiled patterns, shared by every call: a RegExp is data, not eval. */
const patterns = new Map<string, RegExp | null>();

export function compilePattern(source: string): RegExp | null {
  let compiled = patterns.get(source);
  if (compiled !== undefined) return compiled;
  try {
    compiled = new RegExp(source, 'u');
  } catch {
    try {
      // Patterns written for non-unicode engines (e.g. "\-" outside a class).
      compiled = new RegExp(source);
    } catch {
      compiled = null;
    }
  }
  patterns.set(source, compiled);
  return compiled;
}

function check(schema: Schema, value: unknown, path: IssuePath, walk: Walk, issues: ValidationIssue[]): unknown {
  if (schema === true) return value;
  if (schema === false) {
    issues.push({ path, message: 'is not allowed' });
    return value;
  }
  if (!isPlainObject(schema)) return value;
  if (walk.depth > MAX_DEPTH) {
    issues.push({ path, message: 'is nested too deeply to check (or the schema refers to itself without end)' });
    return value;
  }
  const inner: Walk = { root: walk.root, depth: walk.depth + 1 };

  if (schema.nullable === true && value === null) return value;

  if (typeof schema.$ref === 'string') {
    const target = resolveRef(walk.root, schema.$ref);
    // An unresolvable $ref is the schema author's bug, reported when the tool
    // is defined (json-schema-check.ts); here it constrains nothing.
    if (target !== undefined) value = check(target, value, path, inner, issues);
  }

  if (!checkType(schema, value, path, issues)) return value;

  if (Array.isArray(schema.enum) && !schema.enum.some((option) => deepEqual(option, value))) {
    issues.push({ path, message: oneOfValues(schema.enum) });
  }
  if ('const' in schema && !deepEqual(schema.const, value)) {
    issues.push({ path, message: `must be ${quoteValue(schema.const)}` });
  }
  if (typeof value === 'number') checkNumber(schema, value, path, issues);
  else if (typeof value === 'string') checkString(schema, value, path, issues);
  else if (Array.isArray(value)) value = checkArray(schema, value, path, inner, issues);
  else if (isPlainObject(value)) value = checkObject(schema, value, path, inner, issues);

  if (Array.isArray(schema.allOf)) {
    for (const part of schema.allOf as Schema[]) value = check(part, value, path, inner, issues);
  }
  if (Array.isArray(schema.anyOf))
    value = checkAlternatives(schema.anyOf as Schema[], 'any', value, path, inner, issues);
  if (Array.isArray(schema.oneOf))
    value = checkAlternatives(schema.oneOf as Schema[], 'one', value, path, inner, issues);
  if (schema.not !== undefined && passes(schema.not as Schema, value, path, inner)) {
    issues.push({ path, message: 'is not allowed in this form' });
  }
  if (schema.if !== undefined && (schema.then !== undefined || schema.else !== undefined)) {
    const branch = passes(schema.if as Schema, value, path, inner) ? schema.then : schema.else;
    if (branch !== undefined) value = check(branch as Schema, value, path, inner, issues);
  }
  return value;
}

// ---- type ---------------------------------------------------------------------

function checkType(schema: JsonSchema, value: unknown, path: IssuePath, issues: ValidationIssue[]): boolean {
  const declared = schema.type;
  if (declared === undefined) return true;
  const types = (Array.isArray(declared) ? declared : [declared]).filter((t): t is string => typeof t === 'string');
  if (types.length === 0 || types.some((type) => hasType(type, value))) return true;
  if (schema.nullable === true && !types.includes('null')) types.push('null');
  issues.push({ path, message: value === undefined ? 'is required' : `must be ${orList(types.map(typeNoun))}` });
  return false;
}

function hasType(type: string, value: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isPlainObject(value);
    default:
      // An unknown type name constrains nothing (the spec allows no others).
      return true;
  }
}

// ---- numbers and strings ----------------------------------------------------------

function checkNumber(schema: JsonSchema, value: number, path: IssuePath, issues: ValidationIssue[]): void {
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf } = schema;
  if (typeof minimum === 'number') {
    // Draft-04 wrote exclusiveMinimum as a boolean beside minimum.
    if (exclusiveMinimum === true ? value <= minimum : value < minimum) {
      issues.push({ path, message: `must be ${exclusiveMinimum === true ? 'greater than' : 'at least'} ${minimum}` });
    }
  }
  if (typeof maximum === 'number') {
    if (exclusiveMaximum === true ? value >= maximum : value > maximum) {
      issues.push({ path, message: `must be ${exclusiveMaximum === true ? 'less than' : 'at most'} ${maximum}` });
    }
  }
  if (typeof exclusiveMinimum === 'number' && value <= exclusiveMinimum) {
    issues.push({ path, message: `must be greater than ${exclusiveMinimum}` });
  }
  if (typeof exclusiveMaximum === 'number' && value >= exclusiveMaximum) {
    issues.push({ path, message: `must be less than ${exclusiveMaximum}` });
  }
  if (typeof multipleOf === 'number' && multipleOf > 0) {
    const quotient = value / multipleOf;
    // Tolerance for binary fractions: 0.3 is a multiple of 0.1.
    if (Math.abs(quotient - Math.round(quotient)) > 1e-9 * Math.max(1, Math.abs(quotient))) {
      issues.push({ path, message: `must be a multiple of ${multipleOf}` });
    }
  }
}

function checkString(schema: JsonSchema, value: string, path: IssuePath, issues: ValidationIssue[]): void {
  const { minLength, maxLength, pattern, format } = schema;
  if (typeof minLength === 'number' || typeof maxLength === 'number') {
    const length = codePointLength(value);
    if (typeof minLength === 'number' && length < minLength) {
      issues.push({ path, message: `must be at least ${plural(minLength, 'character')} long` });
    }
    if (typeof maxLength === 'number' && length > maxLength) {
      issues.push({ path, message: `must be at most ${plural(maxLength, 'character')} long` });
    }
  }
  const knownFormat = typeof format === 'string' && FORMATS[format] !== undefined;
  let patternFailed = false;
  if (typeof pattern === 'string') {
    const regex = compilePattern(pattern);
    patternFailed = regex !== null && !regex.test(value);
    // z.toJSONSchema writes a format's strict regex as its pattern: name the format, not the regex.
    if (patternFailed && !knownFormat) issues.push({ path, message: `must match the pattern /${pattern}/` });
  }
  if (typeof format === 'string' && (patternFailed && knownFormat ? true : !matchesFormat(format, value))) {
    issues.push({ path, message: formatPhrase(format) });
  }
}

function codePointLength(value: string): number {
  let length = 0;
  for (const _ of value) length++;
  return length;
}

const FORMATS: Record<string, RegExp> = {
  'date-time': /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})?$/,
  date: /^\d{4}-\d{2}-\d{2}$/,
  time: /^\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})?$/,
  email: /^[^\s@]+@[^\s@]+$/,
  uri: /^[A-Za-z][A-Za-z0-9+.-]*:\S*$/,
  url: /^[A-Za-z][A-Za-z0-9+.-]*:\S*$/,
  'uri-reference': /^\S*$/,
  uuid: /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/,
  ipv4: /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/,
};

/** Lenient on purpose: a format is an annotation first; we catch only clear mistakes. */
function matchesFormat(format: string, value: string): boolean {
  const regex = FORMATS[format];
  return regex === undefined || regex.test(value);
}

// ---- arrays ---------------------------------------------------------------------

function checkArray(
  schema: JsonSchema,
  value: unknown[],
  path: IssuePath,
  walk: Walk,
  issues: ValidationIssue[],
): unknown[] {
  const { minItems, maxItems, uniqueItems } = schema;
  if (typeof minItems === 'number' && value.length < minItems) {
    issues.push({ path, message: `must have at least ${plural(minItems, 'item')}` });
  }
  if (typeof maxItems === 'number' && value.length > maxItems) {
    issues.push({ path, message: `must have at most ${plural(maxItems, 'item')}` });
  }
  // 2020-12 tuples are prefixItems + items; draft-07 tuples are items[] + additionalItems.
  const tuple = Array.isArray(schema.prefixItems)
    ? (schema.prefixItems as Schema[])
    : Array.isArray(schema.items)
      ? (schema.items as Schema[])
      : [];
  const rest = (Array.isArray(schema.items) ? schema.additionalItems : schema.items) as Schema | undefined;
  for (let i = 0; i < value.length; i++) {
    const itemSchema = i < tuple.length ? tuple[i] : rest;
    if (itemSchema === undefined) continue;
    if (itemSchema === false) {
      issues.push({ path, message: `must have at most ${plural(tuple.length, 'item')}` });
      break;
    }
    value[i] = check(itemSchema, value[i], [...path, i], walk, issues);
  }
  if (uniqueItems === true) {
    outer: for (let i = 1; i < value.length; i++) {
      for (let j = 0; j < i; j++) {
        if (deepEqual(value[i], value[j])) {
          issues.push({ path, message: `must not contain duplicate items (items ${j} and ${i} are equal)` });
          break outer;
        }
      }
    }
  }
  if (schema.contains !== undefined) {
    const matching = value.filter((item, i) => passes(schema.contains as Schema, item, [...path, i], walk)).length;
    const min = typeof schema.minContains === 'number' ? schema.minContains : 1;
    const max = typeof schema.maxContains === 'number' ? schema.maxContains : Infinity;
    if (matching < min)
      issues.push({ path, message: `must contain at least ${plural(min, 'item')} of the required kind` });
    if (matching > max)
      issues.push({ path, message: `must contain at most ${plural(max, 'item')} of the restricted kind` });
  }
  return value;
}

// ---- objects --------------------------------------------------------------------

function checkObject(
  schema: JsonSchema,
  value: Record<string, unknown>,
  path: IssuePath,
  walk: Walk,
  issues: ValidationIssue[],
): Record<string, unknown> {
  const properties = isPlainObject(schema.properties) ? (schema.properties as Record<string, Schema>) : {};
  const patternProperties = isPlainObject(schema.patternProperties)
    ? (schema.patternProperties as Record<string, Schema>)
    : {};

  // Defaults first, so a property that is both required and defaulted is satisfied.
  for (const key of Object.keys(properties)) {
    if (isForbiddenKey(key) || Object.prototype.hasOwnProperty.call(value, key)) continue;
    const fallback = defaultOf(properties[key]!, walk.root);
    if (fallback.has) value[key] = copyPlainData(fallback.value);
  }

  if (Array.isArray(schema.required)) {
    for (const key of schema.required) {
      if (typeof key === 'string' && !Object.prototype.hasOwnProperty.call(value, key)) {
        issues.push({ path: [...path, key], message: 'is required' });
      }
    }
  }
  if (isPlainObject(schema.dependentRequired)) {
    for (const [key, needs] of Object.entries(schema.dependentRequired)) {
      if (!Object.prototype.hasOwnProperty.call(value, key) || !Array.isArray(needs)) continue;
      for (const need of needs) {
        if (typeof need === 'string' && !Object.prototype.hasOwnProperty.call(value, need)) {
          issues.push({ path: [...path, need], message: `is required when "${key}" is given` });
        }
      }
    }
  }

  const keys = Object.keys(value);
  const { minProperties, maxProperties } = schema;
  if (typeof minProperties === 'number' && keys.length < minProperties) {
    issues.push({ path, message: `must have at least ${plural(minProperties, 'field')}` });
  }
  if (typeof maxProperties === 'number' && keys.length > maxProperties) {
    issues.push({ path, message: `must have at most ${plural(maxProperties, 'field')}` });
  }

  for (const key of keys) {
    const keyPath = [...path, key];
    if (schema.propertyNames !== undefined && !passes(schema.propertyNames as Schema, key, keyPath, walk)) {
      issues.push({ path: keyPath, message: 'is not an allowed field name' });
    }
    let matched = false;
    if (Object.prototype.hasOwnProperty.call(properties, key)) {
      matched = true;
      value[key] = check(properties[key]!, value[key], keyPath, walk, issues);
    }
    for (const [source, sub] of Object.entries(patternProperties)) {
      const regex = compilePattern(source);
      if (regex?.test(key)) {
        matched = true;
        value[key] = check(sub, value[key], keyPath, walk, issues);
      }
    }
    if (matched || schema.additionalProperties === undefined) continue;
    if (schema.additionalProperties === false) {
      issues.push({ path: keyPath, message: 'is not an allowed field' });
    } else {
      value[key] = check(schema.additionalProperties as Schema, value[key], keyPath, walk, issues);
    }
  }
  return value;
}

function defaultOf(schema: Schema, root: Schema): { has: boolean; value?: unknown } {
  let current: Schema | undefined = schema;
  // Follow a short chain of $refs: `{ "$ref": "#/$defs/mode" }` where the default lives.
  for (let hops = 0; hops < 8 && isPlainObject(current); hops++) {
    if ('default' in current) return { has: true, value: current.default };
    if (typeof current.$ref !== 'string') break;
    current = resolveRef(root, current.$ref);
  }
  return { has: false };
}

// ---- anyOf / oneOf --------------------------------------------------------------

function checkAlternatives(
  options: Schema[],
  mode: 'any' | 'one',
  value: unknown,
  path: IssuePath,
  walk: Walk,
  issues: ValidationIssue[],
): unknown {
  const attempts: { issues: ValidationIssue[]; value: unknown; schema: Schema }[] = [];
  for (const option of options) {
    const own: ValidationIssue[] = [];
    // Each option fills defaults into its own copy; only the winner's copy is kept.
    const result = check(option, copyPlainData(value), path, walk, own);
    attempts.push({ issues: own, value: result, schema: option });
    if (mode === 'any' && own.length === 0) return result;
  }
  const passing = attempts.filter((attempt) => attempt.issues.length === 0);
  if (passing.length === 1) return passing[0]!.value;
  if (passing.length > 1) {
    issues.push({ path, message: `matches ${passing.length} of the allowed shapes but must match exactly one` });
    return value;
  }
  if (attempts.length === 0) return value;

  // Every option rejected the kind of value itself: say which kinds would do.
  const rootRejections = attempts.map((attempt) => rootRejection(attempt.schema, attempt.issues, path, walk.root));
  if (rootRejections.every((r) => r !== undefined)) {
    issues.push({ path, message: `must be ${orList([...new Set(rootRejections as string[])])}` });
    return value;
  }
  // Otherwise the closest option (fewest problems, right kind of value) says best what to fix.
  let best: (typeof attempts)[number] | undefined;
  attempts.forEach((attempt, i) => {
    if (rootRejections[i] !== undefined) return;
    if (!best || attempt.issues.length < best.issues.length) best = attempt;
  });
  issues.push(...best!.issues);
  return value;
}

/** What an option would have accepted, if it failed only on the value's kind. */
function rootRejection(schema: Schema, own: ValidationIssue[], path: IssuePath, root: Schema): string | undefined {
  const atRoot = own.filter((issue) => samePath(issue.path, path));
  if (atRoot.length === 0 || atRoot.length !== own.length) return undefined;
  let resolved: Schema | undefined = schema;
  for (let hops = 0; hops < 8 && isPlainObject(resolved) && typeof resolved.$ref === 'string'; hops++) {
    resolved = resolveRef(root, resolved.$ref);
  }
  if (!isPlainObject(resolved)) return undefined;
  if ('const' in resolved) return quoteValue(resolved.const);
  if (Array.isArray(resolved.enum))
    return resolved.enum.length === 1
      ? quoteValue(resolved.enum[0])
      : `one of ${resolved.enum.map(quoteValue).join(', ')}`;
  const message = atRoot[0]!.message;
  if (atRoot.length === 1 && message.startsWith('must be ') && resolved.type !== undefined)
    return message.slice('must be '.length);
  return undefined;
}

function passes(schema: Schema, value: unknown, path: IssuePath, walk: Walk): boolean {
  const own: ValidationIssue[] = [];
  check(schema, copyPlainData(value), path, walk, own);
  return own.length === 0;
}

function samePath(a: IssuePath, b: IssuePath): boolean {
  return a.length === b.length && a.every((segment, i) => segment === b[i]);
}

// ---- equality -----------------------------------------------------------------

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((item, i) => deepEqual(item, other[i]));
  }
  const aKeys = Object.keys(a);
  const bKeys = Object.keys(b);
  if (aKeys.length !== bKeys.length) return false;
  return aKeys.every(
    (key) =>
      Object.prototype.hasOwnProperty.call(b, key) &&
      deepEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
  );
}
