/**
 * A JSON Schema validator for tool arguments, written as a plain interpreter.
 *
 * Why our own: common validators compile schemas with `new Function`, which a
 * page with a strict Content-Security-Policy forbids, and the worker must
 * check a model's call before any page code runs. This one walks the schema
 * at each call (what can be worked out once, where each `$ref` points, is
 * kept per schema: json-schema-index.ts); argument objects are small, so a
 * call costs microseconds. npm test runs it through the official
 * JSON-Schema-Test-Suite (test/tools/json-schema-suite.test.ts); npm run bench
 * measures it beside @cfworker/json-schema (bench/tools.bench.ts).
 *
 * Draft 2020-12 (the default, and what z.toJSONSchema writes) and draft-07
 * (with "$schema" saying so: then "$ref" ignores its siblings): type (with
 * integer, null and OpenAPI's nullable), enum, const, numbers (exclusive
 * bounds as numbers or draft-04 booleans, multipleOf), strings (lengths in
 * code points, pattern, the formats of json-schema-formats.ts), arrays
 * (prefixItems, items, draft-07 tuples with additionalItems, contains with
 * min/maxContains, uniqueItems, unevaluatedItems), objects (properties,
 * patternProperties, additionalProperties, required, dependentRequired,
 * dependentSchemas, draft-07 dependencies, propertyNames, min/maxProperties,
 * unevaluatedProperties), allOf, anyOf, oneOf, not, if/then/else, and
 * references within the schema: "$ref" by JSON pointer, "$id" or "$anchor",
 * and "$dynamicRef". Keywords it does not know are annotations, as the spec
 * says; json-schema-check.ts refuses, when a tool is made, the ones that
 * would assert something this validator cannot judge.
 *
 * The model's arguments are checked as written (so `{"__proto__": 1}` is
 * judged like any key). The result's `value` is a fresh copy (plain-copy.ts:
 * `__proto__`, `constructor` and `prototype` keys are dropped) with defaults
 * filled in (json-schema-defaults.ts). The input is never modified.
 */
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
import { defaultOf, withDefaults, type PendingDefault } from './json-schema-defaults';
import { isAssertedFormat, matchesFormat } from './json-schema-formats';
import { indexSchema, refTarget, type Schema, type SchemaIndex } from './json-schema-index';
import { hasType } from './json-schema-types';
import { canonicalJson, deepEqual } from './json-equal';
import { isForbiddenKey, isPlainObject } from './plain-copy';

export type JsonSchemaValidation = { ok: true; value: unknown } | { ok: false; issues: ValidationIssue[] };

interface Context {
  index: SchemaIndex;
  depth: number;
  /** The resources entered on the way here, outermost first: where a `$dynamicRef` looks. */
  scope: string[];
  defaults: PendingDefault[];
}

/** Deeper than this is a $ref loop or hostile input, not a tool's arguments. */
const MAX_DEPTH = 256;

export function validateJsonSchema(schema: Schema, value: unknown): JsonSchemaValidation {
  const context: Context = { index: indexSchema(schema), depth: 0, scope: [], defaults: [] };
  const issues: ValidationIssue[] = [];
  check(schema, value, [], context, issues);
  return issues.length === 0 ? { ok: true, value: withDefaults(value, context.defaults) } : { ok: false, issues };
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

/**
 * The instance locations a schema evaluated where it passed: what
 * unevaluatedProperties and unevaluatedItems leave alone. Tracked only for
 * schemas that use those keywords.
 */
class Evaluated {
  properties = new Set<string>();
  allProperties = false;
  /** Items 0 … itemPrefix-1 (prefixItems, items), plus the ones contains matched. */
  itemPrefix = 0;
  itemIndexes = new Set<number>();
  allItems = false;

  add(other: Evaluated | undefined): void {
    if (!other) return;
    for (const key of other.properties) this.properties.add(key);
    this.allProperties ||= other.allProperties;
    this.itemPrefix = Math.max(this.itemPrefix, other.itemPrefix);
    for (const i of other.itemIndexes) this.itemIndexes.add(i);
    this.allItems ||= other.allItems;
  }

  hasProperty(key: string): boolean {
    return this.allProperties || this.properties.has(key);
  }

  hasItem(i: number): boolean {
    return this.allItems || i < this.itemPrefix || this.itemIndexes.has(i);
  }
}

function check(
  schema: Schema,
  value: unknown,
  path: IssuePath,
  ctx: Context,
  issues: ValidationIssue[],
): Evaluated | undefined {
  if (schema === true) return ctx.index.tracksEvaluation ? new Evaluated() : undefined;
  if (schema === false) {
    issues.push({ path, message: 'is not allowed' });
    return undefined;
  }
  if (!isPlainObject(schema)) return undefined;
  if (ctx.depth >= MAX_DEPTH) {
    issues.push({ path, message: 'is nested too deeply to check (or the schema refers to itself without end)' });
    return undefined;
  }
  const resource = ctx.index.resourceOf.get(schema);
  const entered = resource !== undefined && resource !== ctx.scope[ctx.scope.length - 1];
  if (entered) ctx.scope.push(resource);
  ctx.depth++;
  try {
    return checkKeywords(schema, value, path, ctx, issues);
  } finally {
    ctx.depth--;
    if (entered) ctx.scope.pop();
  }
}

function checkKeywords(
  schema: Record<string, unknown>,
  value: unknown,
  path: IssuePath,
  ctx: Context,
  issues: ValidationIssue[],
): Evaluated | undefined {
  const seen = ctx.index.tracksEvaluation ? new Evaluated() : undefined;
  if (schema.nullable === true && value === null) return seen;

  if (typeof schema.$ref === 'string') {
    merge(seen, follow(refTarget(ctx.index, schema), schema.$ref, value, path, ctx, issues));
    if (ctx.index.legacy) return seen;
  }
  if (typeof schema.$dynamicRef === 'string') {
    const site = ctx.index.dynamicRefs.get(schema);
    let target = site?.target;
    if (site?.anchor !== undefined) {
      // The outermost resource in scope that has this dynamic anchor decides.
      for (const uri of ctx.scope) {
        const anchored = ctx.index.dynamicAnchors.get(uri)?.get(site.anchor);
        if (anchored !== undefined) {
          target = anchored;
          break;
        }
      }
    }
    merge(seen, follow(target, schema.$dynamicRef, value, path, ctx, issues));
  }

  if (!checkType(schema, value, path, issues)) return seen;

  if (Array.isArray(schema.enum) && !schema.enum.some((option) => deepEqual(option, value))) {
    issues.push({ path, message: oneOfValues(schema.enum) });
  }
  if ('const' in schema && !deepEqual(schema.const, value)) {
    issues.push({ path, message: `must be ${quoteValue(schema.const)}` });
  }
  if (typeof value === 'number') checkNumber(schema, value, path, issues);
  else if (typeof value === 'string') checkString(schema, value, path, issues);
  else if (Array.isArray(value)) checkArray(schema, value, path, ctx, issues, seen);
  else if (isPlainObject(value)) checkObject(schema, value, path, ctx, issues, seen);

  // Applicators in place: they look at this same value, and what they evaluate counts as evaluated here.
  if (Array.isArray(schema.allOf)) {
    for (const part of schema.allOf as Schema[]) merge(seen, check(part, value, path, ctx, issues));
  }
  if (Array.isArray(schema.anyOf)) checkAlternatives(schema.anyOf as Schema[], 'any', value, path, ctx, issues, seen);
  if (Array.isArray(schema.oneOf)) checkAlternatives(schema.oneOf as Schema[], 'one', value, path, ctx, issues, seen);
  if (schema.not !== undefined && attempt(schema.not as Schema, value, path, ctx, 'discard').ok) {
    issues.push({ path, message: 'is not allowed in this form' });
  }
  if (schema.if !== undefined && (seen || schema.then !== undefined || schema.else !== undefined)) {
    // The condition's own defaults are not applied: it tests the value, it does not shape it.
    const condition = attempt(schema.if as Schema, value, path, ctx, 'discard');
    if (condition.ok) merge(seen, condition.seen);
    const branch = condition.ok ? schema.then : schema.else;
    if (branch !== undefined) merge(seen, check(branch as Schema, value, path, ctx, issues));
  }
  if (isPlainObject(value)) {
    for (const dependents of [schema.dependentSchemas, schema.dependencies]) {
      if (!isPlainObject(dependents)) continue;
      for (const key of Object.keys(dependents)) {
        const dependent = dependents[key];
        if (Array.isArray(dependent) || !Object.prototype.hasOwnProperty.call(value, key)) continue;
        merge(seen, check(dependent as Schema, value, path, ctx, issues));
      }
    }
  }

  // Last: these apply to whatever nothing above evaluated.
  if (seen && Array.isArray(value) && schema.unevaluatedItems !== undefined) {
    for (let i = 0; i < value.length; i++) {
      if (!seen.hasItem(i)) check(schema.unevaluatedItems as Schema, value[i], [...path, i], ctx, issues);
    }
    seen.allItems = true;
  }
  if (seen && isPlainObject(value) && schema.unevaluatedProperties !== undefined) {
    for (const key of Object.keys(value)) {
      if (seen.hasProperty(key)) continue;
      if (schema.unevaluatedProperties === false)
        issues.push({ path: [...path, key], message: 'is not an allowed field' });
      else check(schema.unevaluatedProperties as Schema, value[key], [...path, key], ctx, issues);
    }
    seen.allProperties = true;
  }
  return seen;
}

/** Optional chaining would skip evaluating the argument, so this is a function. */
function merge(seen: Evaluated | undefined, other: Evaluated | undefined): void {
  seen?.add(other);
}

function follow(
  target: Schema | undefined,
  ref: string,
  value: unknown,
  path: IssuePath,
  ctx: Context,
  issues: ValidationIssue[],
): Evaluated | undefined {
  if (target !== undefined) return check(target, value, path, ctx, issues);
  // json-schema-check.ts refuses such a schema when a tool is made; a schema that got here anyway
  // is not trusted to mean "anything goes".
  issues.push({ path, message: `cannot be checked: the schema's reference "${ref}" points nowhere` });
  return undefined;
}

/**
 * Checks `schema` on its own. `keep`: a passing subschema's defaults stay
 * recorded; `discard`: they are taken back either way. A failing one's always are.
 */
function attempt(
  schema: Schema,
  value: unknown,
  path: IssuePath,
  ctx: Context,
  defaults: 'keep' | 'discard',
): { ok: boolean; issues: ValidationIssue[]; seen: Evaluated | undefined } {
  const mark = ctx.defaults.length;
  const own: ValidationIssue[] = [];
  const seen = check(schema, value, path, ctx, own);
  if (own.length > 0 || defaults === 'discard') ctx.defaults.length = mark;
  return { ok: own.length === 0, issues: own, seen };
}

// ---- type ---------------------------------------------------------------------

function checkType(
  schema: Record<string, unknown>,
  value: unknown,
  path: IssuePath,
  issues: ValidationIssue[],
): boolean {
  const declared = schema.type;
  if (declared === undefined) return true;
  const types = (Array.isArray(declared) ? declared : [declared]).filter((t): t is string => typeof t === 'string');
  if (types.length === 0 || types.some((type) => hasType(type, value))) return true;
  if (schema.nullable === true && !types.includes('null')) types.push('null');
  issues.push({ path, message: value === undefined ? 'is required' : `must be ${orList(types.map(typeNoun))}` });
  return false;
}

// ---- numbers and strings ----------------------------------------------------------

function checkNumber(schema: Record<string, unknown>, value: number, path: IssuePath, issues: ValidationIssue[]): void {
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
  if (typeof multipleOf === 'number' && multipleOf > 0 && !isMultipleOf(value, multipleOf)) {
    issues.push({ path, message: `must be a multiple of ${multipleOf}` });
  }
}

function isMultipleOf(value: number, divisor: number): boolean {
  if (Number.isInteger(value) && Number.isInteger(divisor)) return value % divisor === 0;
  const quotient = value / divisor;
  // A quotient past 2^53 (or Infinity) has lost the digits that would tell; it is not judged a multiple.
  if (!Number.isFinite(quotient)) return false;
  // Tolerance for binary fractions: 0.3 is a multiple of 0.1.
  return Math.abs(quotient - Math.round(quotient)) <= 1e-9 * Math.max(1, Math.abs(quotient));
}

function checkString(schema: Record<string, unknown>, value: string, path: IssuePath, issues: ValidationIssue[]): void {
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
  const assertedFormat = typeof format === 'string' && isAssertedFormat(format);
  let patternFailed = false;
  if (typeof pattern === 'string') {
    const regex = compilePattern(pattern);
    patternFailed = regex !== null && !regex.test(value);
    // z.toJSONSchema writes a format's strict regex as its pattern: name the format, not the regex.
    if (patternFailed && !assertedFormat) issues.push({ path, message: `must match the pattern /${pattern}/` });
  }
  if (typeof format === 'string' && (patternFailed && assertedFormat ? true : !matchesFormat(format, value))) {
    issues.push({ path, message: formatPhrase(format) });
  }
}

function codePointLength(value: string): number {
  let length = 0;
  for (const _ of value) length++;
  return length;
}

// ---- arrays ---------------------------------------------------------------------

function checkArray(
  schema: Record<string, unknown>,
  value: unknown[],
  path: IssuePath,
  ctx: Context,
  issues: ValidationIssue[],
  seen: Evaluated | undefined,
): void {
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
    if (itemSchema === undefined) break;
    if (itemSchema === false) {
      issues.push({ path, message: `must have at most ${plural(tuple.length, 'item')}` });
      break;
    }
    check(itemSchema, value[i], [...path, i], ctx, issues);
  }
  if (seen) {
    const evaluated = rest === undefined ? Math.min(tuple.length, value.length) : value.length;
    seen.itemPrefix = Math.max(seen.itemPrefix, evaluated);
  }
  if (uniqueItems === true) {
    const firstSeen = new Map<string, number>();
    for (let i = 0; i < value.length; i++) {
      const key = canonicalJson(value[i]);
      const j = firstSeen.get(key);
      if (j !== undefined) {
        issues.push({ path, message: `must not contain duplicate items (items ${j} and ${i} are equal)` });
        break;
      }
      firstSeen.set(key, i);
    }
  }
  if (schema.contains !== undefined) {
    let matching = 0;
    for (let i = 0; i < value.length; i++) {
      if (!attempt(schema.contains as Schema, value[i], [...path, i], ctx, 'discard').ok) continue;
      matching++;
      seen?.itemIndexes.add(i);
    }
    const min = typeof schema.minContains === 'number' ? schema.minContains : 1;
    const max = typeof schema.maxContains === 'number' ? schema.maxContains : Infinity;
    if (matching < min)
      issues.push({ path, message: `must contain at least ${plural(min, 'item')} of the required kind` });
    if (matching > max)
      issues.push({ path, message: `must contain at most ${plural(max, 'item')} of the restricted kind` });
  }
}

// ---- objects --------------------------------------------------------------------

function checkObject(
  schema: Record<string, unknown>,
  value: Record<string, unknown>,
  path: IssuePath,
  ctx: Context,
  issues: ValidationIssue[],
  seen: Evaluated | undefined,
): void {
  const properties = isPlainObject(schema.properties) ? (schema.properties as Record<string, Schema>) : {};
  const patternProperties = isPlainObject(schema.patternProperties)
    ? (schema.patternProperties as Record<string, Schema>)
    : {};
  const has = (key: string) => Object.prototype.hasOwnProperty.call(value, key);

  if (Array.isArray(schema.required)) {
    for (const key of schema.required) {
      if (typeof key === 'string' && !has(key)) issues.push({ path: [...path, key], message: 'is required' });
    }
  }
  for (const dependents of [schema.dependentRequired, schema.dependencies]) {
    if (!isPlainObject(dependents)) continue;
    for (const key of Object.keys(dependents)) {
      const needs = dependents[key];
      if (!has(key) || !Array.isArray(needs)) continue;
      for (const need of needs) {
        if (typeof need === 'string' && !has(need)) {
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
    if (
      schema.propertyNames !== undefined &&
      !attempt(schema.propertyNames as Schema, key, keyPath, ctx, 'discard').ok
    ) {
      issues.push({ path: keyPath, message: 'is not an allowed field name' });
    }
    let matched = false;
    if (Object.prototype.hasOwnProperty.call(properties, key)) {
      matched = true;
      check(properties[key]!, value[key], keyPath, ctx, issues);
    }
    for (const source of Object.keys(patternProperties)) {
      if (compilePattern(source)?.test(key)) {
        matched = true;
        check(patternProperties[source]!, value[key], keyPath, ctx, issues);
      }
    }
    if (matched) seen?.properties.add(key);
    if (matched || schema.additionalProperties === undefined) continue;
    seen?.properties.add(key);
    if (schema.additionalProperties === false) {
      issues.push({ path: keyPath, message: 'is not an allowed field' });
    } else {
      check(schema.additionalProperties as Schema, value[key], keyPath, ctx, issues);
    }
  }

  // Recorded now, applied only if the whole instance turns out valid.
  for (const key of Object.keys(properties)) {
    if (isForbiddenKey(key) || has(key)) continue;
    const fallback = defaultOf(properties[key]!, ctx.index);
    if (fallback.has) ctx.defaults.push({ target: value, key, value: fallback.value });
  }
}

// ---- anyOf / oneOf --------------------------------------------------------------

function checkAlternatives(
  options: Schema[],
  mode: 'any' | 'one',
  value: unknown,
  path: IssuePath,
  ctx: Context,
  issues: ValidationIssue[],
  seen: Evaluated | undefined,
): void {
  const attempts: { issues: ValidationIssue[]; schema: Schema }[] = [];
  let passing = 0;
  for (const option of options) {
    // Only the first option that matches gives its defaults.
    const outcome = attempt(option, value, path, ctx, passing === 0 ? 'keep' : 'discard');
    attempts.push({ issues: outcome.issues, schema: option });
    if (!outcome.ok) continue;
    passing++;
    merge(seen, outcome.seen);
    // anyOf needs no more options, unless unevaluated* must know what every matching option evaluated.
    if (mode === 'any' && !seen) return;
  }
  if (passing === 1 || (passing > 1 && mode === 'any')) return;
  if (passing > 1) {
    issues.push({ path, message: `matches ${passing} of the allowed shapes but must match exactly one` });
    return;
  }
  if (attempts.length === 0) return;

  // Every option rejected the kind of value itself: say which kinds would do.
  const rootRejections = attempts.map((attempt) => rootRejection(attempt.schema, attempt.issues, path, ctx.index));
  if (rootRejections.every((r) => r !== undefined)) {
    issues.push({ path, message: `must be ${orList([...new Set(rootRejections as string[])])}` });
    return;
  }
  // Otherwise the closest option (fewest problems, right kind of value) says best what to fix.
  let best: (typeof attempts)[number] | undefined;
  attempts.forEach((attempt, i) => {
    if (rootRejections[i] !== undefined) return;
    if (!best || attempt.issues.length < best.issues.length) best = attempt;
  });
  issues.push(...best!.issues);
}

/** What an option would have accepted, if it failed only on the value's kind. */
function rootRejection(
  schema: Schema,
  own: ValidationIssue[],
  path: IssuePath,
  index: SchemaIndex,
): string | undefined {
  const atRoot = own.filter((issue) => samePath(issue.path, path));
  if (atRoot.length === 0 || atRoot.length !== own.length) return undefined;
  let resolved: Schema | undefined = schema;
  for (let hops = 0; hops < 8 && isPlainObject(resolved) && typeof resolved.$ref === 'string'; hops++) {
    resolved = refTarget(index, resolved);
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

function samePath(a: IssuePath, b: IssuePath): boolean {
  return a.length === b.length && a.every((segment, i) => segment === b[i]);
}
