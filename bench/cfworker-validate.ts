/**
 * @cfworker/json-schema behind our message layer: the other path measured
 * before src/tools/json-schema-validate.ts was chosen (the commit that chose
 * gives the figures). Kept so that the bench can measure it again beside ours.
 *
 * What our layer adds around it: OpenAPI's `nullable` (cfworker does not know
 * it: the schema is rewritten to allow null), issues in our words
 * (format-issues.ts) from cfworker's output units, defaults filled after
 * validation (our walk, asking cfworker which anyOf/oneOf option matched),
 * and the plain copy without `__proto__`, `constructor` and `prototype`.
 * `$dynamicRef` and `$dynamicAnchor` are refused when the tool is made:
 * cfworker implements draft 2019-09's `$recursiveRef` instead, accepts
 * invalid values through a `$dynamicRef` (13 tests of the suite) and throws
 * on a `$ref` to a `$dynamicAnchor`.
 */
import { validate, Validator, type OutputUnit, type Schema as CfSchema } from '@cfworker/json-schema';
import {
  formatPhrase,
  oneOfValues,
  orList,
  plural,
  quoteValue,
  typeNoun,
  type IssuePath,
  type ValidationIssue,
} from '../src/tools/format-issues';
import { indexSchema, type Schema } from '../src/tools/json-schema-index';
import type { JsonSchemaValidation } from '../src/tools/json-schema-validate';
import { copyPlainData, isForbiddenKey, isPlainObject } from '../src/tools/plain-copy';

const ASSERTED = new Set(['date-time', 'date', 'time', 'email', 'uri', 'url', 'uri-reference', 'uuid', 'ipv4']);
const validators = new WeakMap<object, Validator>();
const normalized = new WeakMap<object, Schema>();
/** WeakMap keys for the boolean schemas. */
const TRUE = {};
const FALSE = {};

function validatorFor(schema: Schema): Validator {
  const key = typeof schema === 'object' ? schema : schema ? TRUE : FALSE;
  let validator = validators.get(key);
  if (!validator) {
    const draft = isPlainObject(schema) && /draft-0[4-7]/.test(String(schema.$schema ?? '')) ? '7' : '2020-12';
    const rewritten = inCfworkerTerms(schema) as Schema;
    if (typeof schema === 'object') normalized.set(schema, rewritten);
    // cfworker writes its lookups into the schema it is given: it gets a copy.
    validator = new Validator(structuredClone(rewritten) as CfSchema, draft, false);
    validators.set(key, validator);
    if (typeof rewritten === 'object') validators.set(rewritten, validator);
  }
  return validator;
}

function lookupOf(validator: Validator): Record<string, CfSchema> {
  return (validator as unknown as { lookup: Record<string, CfSchema> }).lookup;
}

/** Refused when a tool is made, like the keywords our own validator cannot judge. */
export function cfworkerRefuses(schema: unknown): boolean {
  return /"\$dynamic(Ref|Anchor)"/.test(JSON.stringify(schema ?? null));
}

export function validateWithCfworker(schema: Schema, value: unknown): JsonSchemaValidation {
  const validator = validatorFor(schema);
  let result: ReturnType<Validator['validate']>;
  try {
    result = validator.validate(value);
  } catch (error) {
    // cfworker follows a $ref loop until the stack runs out.
    if (!(error instanceof RangeError)) throw error;
    return {
      ok: false,
      issues: [{ path: [], message: 'is nested too deeply to check (or the schema refers to itself without end)' }],
    };
  }
  if (result.valid) return { ok: true, value: copyPlainData(value, defaultsFor(schema, value, validator)) };
  const rewritten = typeof schema === 'object' ? (normalized.get(schema) ?? schema) : schema;
  return { ok: false, issues: toIssues(result.errors, rewritten, value) };
}

/** What cfworker does not read, said its way: OpenAPI's `nullable` as a null type (and enum value), draft-04's boolean exclusive bounds as numbers. */
function inCfworkerTerms(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(inCfworkerTerms);
  if (!isPlainObject(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, sub] of Object.entries(schema)) {
    // defineProperty: a property named "__proto__" stays a property.
    const value = key === 'enum' || key === 'const' ? sub : inCfworkerTerms(sub);
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  }
  // Draft-04's boolean exclusive bounds, as numbers.
  for (const [bound, exclusive] of [
    ['minimum', 'exclusiveMinimum'],
    ['maximum', 'exclusiveMaximum'],
  ] as const) {
    if (out[exclusive] === true && typeof out[bound] === 'number') {
      out[exclusive] = out[bound];
      delete out[bound];
    } else if (typeof out[exclusive] === 'boolean') delete out[exclusive];
  }
  if (out.nullable === true) {
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    else if (Array.isArray(out.type) && !out.type.includes('null')) out.type = [...out.type, 'null'];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  }
  return out;
}

// ---- issues ---------------------------------------------------------------------

/** Units that only say "something below failed"; the units below say what. */
const WRAPPERS = new Set([
  'properties',
  'patternProperties',
  'items',
  'prefixItems',
  'additionalItems',
  'allOf',
  '$ref',
  'dependentSchemas',
  'dependencies',
  'if',
  'unevaluatedItems',
  'contains',
]);

function toIssues(units: OutputUnit[], schema: Schema, value: unknown): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const index = indexSchema(schema);
  // Units under an anyOf/oneOf that failed as a whole are that option's reasons, not the value's.
  const alternatives = units
    .filter((u) => u.keyword === 'anyOf' || u.keyword === 'oneOf')
    .map((u) => u.keywordLocation);
  const notAllowedFields = new Set<string>();
  const tooLong: string[] = [];
  for (const unit of units) {
    if (
      (unit.keyword === 'additionalItems' || unit.keyword === 'items') &&
      atKeyword(schema, unit.keywordLocation, index) === false
    ) {
      const tuple = atKeyword(
        schema,
        unit.keywordLocation.replace(
          /\/(additionalItems|items)$/,
          unit.keyword === 'items' ? '/prefixItems' : '/items',
        ),
        index,
      );
      if (!tooLong.includes(unit.instanceLocation)) {
        tooLong.push(unit.instanceLocation);
        const count = Array.isArray(tuple) ? tuple.length : 0;
        issues.push({
          path: instancePath(unit.instanceLocation, value),
          message: `must have at most ${plural(count, 'item')}`,
        });
      }
      continue;
    }
    if (WRAPPERS.has(unit.keyword)) continue;
    if (alternatives.some((location) => unit.keywordLocation.startsWith(`${location}/`))) continue;
    if (unit.keyword === 'false' && notAllowedFields.has(unit.instanceLocation)) continue;
    if (unit.keyword === 'false' && tooLong.some((location) => unit.instanceLocation.startsWith(`${location}/`)))
      continue;
    const path = instancePath(unit.instanceLocation, value);
    const keywordValue = atKeyword(schema, unit.keywordLocation, index);
    if (unit.keyword === 'pattern') {
      // z.toJSONSchema writes a format's regex as its pattern: the format's phrase says it.
      const format = atKeyword(schema, unit.keywordLocation.replace(/\/pattern$/, '/format'), index);
      if (typeof format === 'string' && ASSERTED.has(format)) continue;
    }
    const phrase = phraseFor(unit, keywordValue, path, value, schema, index);
    if (!phrase) continue;
    if (phrase.message === 'is not an allowed field')
      notAllowedFields.add(
        `${unit.instanceLocation}/${encodeURIComponent(String(phrase.path[phrase.path.length - 1]))}`,
      );
    issues.push(phrase);
  }
  return issues;
}

function phraseFor(
  unit: OutputUnit,
  keywordValue: unknown,
  path: IssuePath,
  value: unknown,
  schema: Schema,
  index: ReturnType<typeof indexSchema>,
): ValidationIssue | undefined {
  const quoted = /"([^"]*)"/.exec(unit.error)?.[1] ?? '';
  switch (unit.keyword) {
    case 'false':
      return { path, message: 'is not allowed' };
    case 'additionalProperties':
    case 'unevaluatedProperties':
      return keywordValue === false ? { path: [...path, quoted], message: 'is not an allowed field' } : undefined;
    case 'type': {
      const types = (Array.isArray(keywordValue) ? keywordValue : [keywordValue]) as string[];
      return { path, message: `must be ${orList(types.map(typeNoun))}` };
    }
    case 'required':
      return { path: [...path, quoted], message: 'is required' };
    case 'dependentRequired':
      return { path, message: `is missing a field that "${quoted}" needs` };
    case 'enum':
      return { path, message: oneOfValues(keywordValue as unknown[]) };
    case 'const':
      return { path, message: `must be ${quoteValue(keywordValue)}` };
    case 'minimum':
      return { path, message: `must be at least ${String(keywordValue)}` };
    case 'maximum':
      return { path, message: `must be at most ${String(keywordValue)}` };
    case 'exclusiveMinimum':
      return { path, message: `must be greater than ${String(keywordValue)}` };
    case 'exclusiveMaximum':
      return { path, message: `must be less than ${String(keywordValue)}` };
    case 'multipleOf':
      return { path, message: `must be a multiple of ${String(keywordValue)}` };
    case 'minLength':
      return { path, message: `must be at least ${plural(keywordValue as number, 'character')} long` };
    case 'maxLength':
      return { path, message: `must be at most ${plural(keywordValue as number, 'character')} long` };
    case 'pattern':
      return { path, message: `must match the pattern /${String(keywordValue)}/` };
    case 'format':
      return { path, message: formatPhrase(String(keywordValue)) };
    case 'minItems':
      return { path, message: `must have at least ${plural(keywordValue as number, 'item')}` };
    case 'maxItems':
      return { path, message: `must have at most ${plural(keywordValue as number, 'item')}` };
    case 'uniqueItems': {
      const [, j, k] = /(\d+) and (\d+)/.exec(unit.error) ?? [];
      return { path, message: `must not contain duplicate items (items ${j} and ${k} are equal)` };
    }
    case 'minContains':
      return { path, message: `must contain at least ${plural(keywordValue as number, 'item')} of the required kind` };
    case 'maxContains':
      return { path, message: `must contain at most ${plural(keywordValue as number, 'item')} of the restricted kind` };
    case 'minProperties':
      return { path, message: `must have at least ${plural(keywordValue as number, 'field')}` };
    case 'maxProperties':
      return { path, message: `must have at most ${plural(keywordValue as number, 'field')}` };
    case 'propertyNames':
      return { path: [...path, quoted], message: 'is not an allowed field name' };
    case 'not':
      return { path, message: 'is not allowed in this form' };
    case 'anyOf':
    case 'oneOf':
      return alternativesIssue(unit, keywordValue as Schema[], path, value, schema, index);
    default:
      return { path, message: `is invalid: ${unit.error}` };
  }
}

/** Every option failed: the kinds they would take, or the closest option's first reason. */
function alternativesIssue(
  unit: OutputUnit,
  options: Schema[],
  path: IssuePath,
  value: unknown,
  schema: Schema,
  index: ReturnType<typeof indexSchema>,
): ValidationIssue {
  const matches = Number(/\((\d+) matches\)/.exec(unit.error)?.[1] ?? 0);
  if (unit.keyword === 'oneOf' && matches > 1)
    return { path, message: `matches ${matches} of the allowed shapes but must match exactly one` };
  const at = atPath(value, path);
  const lookup = lookupOf(validatorFor(schema));
  const outcomes = options.map((option) => {
    const errors = validate(at, option as CfSchema, '2020-12', lookup, false).errors;
    return { option, issues: toIssues(errors, option, at) };
  });
  const kinds = outcomes.map(({ option, issues }) => {
    if (issues.length === 0 || issues.some((issue) => issue.path.length > 0)) return undefined;
    let resolved: Schema | undefined = option;
    for (let hops = 0; hops < 8 && isPlainObject(resolved) && typeof resolved.$ref === 'string'; hops++)
      resolved = index.refs.get(resolved);
    if (!isPlainObject(resolved)) return undefined;
    if ('const' in resolved) return quoteValue(resolved.const);
    if (Array.isArray(resolved.enum))
      return resolved.enum.length === 1
        ? quoteValue(resolved.enum[0])
        : `one of ${resolved.enum.map(quoteValue).join(', ')}`;
    const message = issues[0]!.message;
    return issues.length === 1 && message.startsWith('must be ') && resolved.type !== undefined
      ? message.slice('must be '.length)
      : undefined;
  });
  if (kinds.every((kind) => kind !== undefined)) return { path, message: `must be ${orList([...new Set(kinds)])}` };
  // The closest option of the value's own kind says what to fix.
  let best: (typeof outcomes)[number] | undefined;
  outcomes.forEach((outcome, i) => {
    if (kinds[i] === undefined && (!best || outcome.issues.length < best.issues.length)) best = outcome;
  });
  const first = best?.issues[0];
  if (first) return { path: [...path, ...first.path], message: first.message };
  return { path, message: 'matches none of the allowed shapes' };
}

function kindOf(type: string, value: unknown): boolean {
  if (type === 'integer') return Number.isInteger(value);
  if (type === 'array') return Array.isArray(value);
  if (type === 'null') return value === null;
  if (type === 'object') return isPlainObject(value);
  return typeof value === type;
}

function instancePath(location: string, value: unknown): IssuePath {
  const path: IssuePath = [];
  let current = value;
  for (const raw of location.split('/').slice(1)) {
    const token = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    const segment = Array.isArray(current) ? Number(token) : token;
    path.push(segment);
    current = (current as Record<string | number, unknown> | undefined)?.[segment];
  }
  return path;
}

function atPath(value: unknown, path: IssuePath): unknown {
  let current = value;
  for (const segment of path) current = (current as Record<string | number, unknown> | undefined)?.[segment];
  return current;
}

/** The keyword's value at cfworker's keywordLocation, which runs through `$ref`s. */
function atKeyword(schema: Schema, location: string, index: ReturnType<typeof indexSchema>): unknown {
  let current: unknown = schema;
  for (const raw of location.split('/').slice(1)) {
    const token = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (token === '$ref' && isPlainObject(current)) current = index.refs.get(current);
    else current = (current as Record<string, unknown> | undefined)?.[token];
  }
  return current;
}

// ---- defaults -------------------------------------------------------------------

function defaultsFor(schema: Schema, value: unknown, validator: Validator) {
  const byTarget = new Map<object, [string, unknown][]>();
  const index = indexSchema(schema);
  const walk = (node: Schema | undefined, at: unknown, depth: number): void => {
    if (!isPlainObject(node) || depth > 64) return;
    if (typeof node.$ref === 'string') walk(index.refs.get(node), at, depth + 1);
    if (Array.isArray(node.allOf)) for (const part of node.allOf as Schema[]) walk(part, at, depth + 1);
    for (const key of ['anyOf', 'oneOf'] as const) {
      const options = node[key];
      if (!Array.isArray(options)) continue;
      const match = (options as Schema[]).find(
        (option) => validate(at, option as CfSchema, '2020-12', lookupOf(validator), true).valid,
      );
      walk(match, at, depth + 1);
    }
    if (isPlainObject(at) && isPlainObject(node.properties)) {
      const properties = node.properties as Record<string, Schema>;
      for (const key of Object.keys(properties)) {
        if (Object.prototype.hasOwnProperty.call(at, key)) walk(properties[key], at[key], depth + 1);
        else if (!isForbiddenKey(key)) {
          let target: Schema | undefined = properties[key];
          for (let hops = 0; hops < 8 && isPlainObject(target); hops++) {
            if ('default' in target) {
              let entries = byTarget.get(at);
              if (!entries) byTarget.set(at, (entries = []));
              if (!entries.some(([known]) => known === key)) entries.push([key, target.default]);
              break;
            }
            if (typeof target.$ref !== 'string') break;
            target = index.refs.get(target);
          }
        }
      }
    }
    if (Array.isArray(at) && node.items !== undefined && !Array.isArray(node.items)) {
      for (const item of at) walk(node.items as Schema, item, depth + 1);
    }
  };
  walk(schema, value, 0);
  return (original: Record<string, unknown>) => byTarget.get(original);
}
