/**
 * Problems in a JSON Schema itself, found once when a tool is made from it
 * (fromMCPTool, and so importWebMCPTools). Such a schema is refused then,
 * instead of surfacing later as a model's "invalid" call, or worse, as a call
 * let through because the validator could only guess. Two kinds:
 *
 * - the author's mistakes: a reference that points nowhere (or outside the
 *   schema: the worker fetches nothing), a type that is no JSON type, a
 *   pattern that is no regular expression;
 * - what the validator cannot judge: a keyword that asserts something in
 *   another dialect (draft 2019-09's `$recursiveRef`, draft-03's `extends`),
 *   or a keyword we judge whose value we cannot read (`"minLength": "3"`,
 *   draft-03's `"required": true` on a property).
 *
 * Annotations are never grounds to refuse: title, description, examples,
 * default, deprecated, $comment, content*, format names the validator does
 * not assert, and keywords no dialect knows (the spec makes them annotations).
 */
import type { JsonSchema } from './declaration';
import { forEachSubschema, indexSchema, refTarget } from './json-schema-index';
import { compilePattern } from './json-schema-validate';
import { isPlainObject } from './plain-copy';

const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'null', 'array', 'object']);

/** Keywords that assert something in some dialect, and what to write instead. */
const NOT_JUDGED: Record<string, string> = {
  $recursiveRef: 'draft 2019-09\'s recursive reference; write "$dynamicRef" (draft 2020-12) or "$ref" instead',
  $recursiveAnchor: 'draft 2019-09\'s recursive anchor; write "$dynamicAnchor" (draft 2020-12) instead',
  extends: 'draft-03\'s inheritance; write "allOf" instead',
  disallow: 'draft-03\'s forbidden types; write "not": { "type": … } instead',
  divisibleBy: 'draft-03\'s name for "multipleOf"; write "multipleOf" instead',
};

const COUNTS = [
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'minContains',
  'maxContains',
];
const NUMBERS = ['minimum', 'maximum'];
const BOUNDS = ['exclusiveMinimum', 'exclusiveMaximum'];
const FLAGS = ['uniqueItems', 'nullable'];
const NAMES = ['$id', '$anchor', '$dynamicAnchor', '$schema'];
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'dependencies'];

/** Each problem names where it is, e.g. `properties.when.$ref "#/$defs/x" points nowhere`. */
export function jsonSchemaProblems(root: JsonSchema | boolean): string[] {
  const problems: string[] = [];
  const index = indexSchema(root);
  const seen = new Set<object>();

  const visit = (schema: unknown, at: string): void => {
    if (typeof schema === 'boolean') return;
    if (!isPlainObject(schema)) {
      problems.push(`${at || 'the schema'} is not a schema (an object or true/false)`);
      return;
    }
    if (seen.has(schema)) return;
    seen.add(schema);
    const where = at ? `${at}.` : '';
    const problem = (keyword: string, text: string) => problems.push(`${where}${keyword} ${text}`);

    for (const keyword of ['$ref', '$dynamicRef'] as const) {
      const ref = schema[keyword];
      if (ref === undefined) continue;
      if (typeof ref !== 'string') problem(keyword, 'must be a string');
      else if ((keyword === '$ref' ? refTarget(index, schema) : index.dynamicRefs.get(schema)?.target) === undefined) {
        problem(keyword, `"${ref}" points nowhere (only local references such as "#/$defs/name" are supported)`);
      }
    }
    for (const keyword of Object.keys(NOT_JUDGED)) {
      if (schema[keyword] !== undefined)
        problem(keyword, `is not judged by this validator: it is ${NOT_JUDGED[keyword]}`);
    }
    if (schema.type !== undefined) {
      const types = Array.isArray(schema.type) ? schema.type : [schema.type];
      for (const type of types) {
        if (typeof type !== 'string' || !TYPES.has(type))
          problem('type', `${JSON.stringify(type)} is not a JSON Schema type`);
      }
    }
    if (typeof schema.required === 'boolean') {
      problem(
        'required',
        `is ${schema.required}, draft-03's form, which this validator does not judge: list required fields in the "required" array of the object that holds them`,
      );
    } else if (
      schema.required !== undefined &&
      !(Array.isArray(schema.required) && schema.required.every((k) => typeof k === 'string'))
    ) {
      problem('required', 'must be a list of property names');
    }
    if (
      schema.pattern !== undefined &&
      (typeof schema.pattern !== 'string' || compilePattern(schema.pattern) === null)
    ) {
      problem('pattern', `${JSON.stringify(schema.pattern)} is not a valid regular expression`);
    }
    if (isPlainObject(schema.patternProperties)) {
      for (const source of Object.keys(schema.patternProperties)) {
        if (compilePattern(source) === null)
          problem('patternProperties', `key ${JSON.stringify(source)} is not a valid regular expression`);
      }
    }
    const expect = (keyword: string, ok: (value: unknown) => boolean, what: string) => {
      if (schema[keyword] !== undefined && !ok(schema[keyword]))
        problem(keyword, `must be ${what}; got ${JSON.stringify(schema[keyword])}`);
    };
    for (const keyword of COUNTS)
      expect(keyword, (v) => Number.isInteger(v) && (v as number) >= 0, 'a whole number, 0 or more');
    for (const keyword of NUMBERS) expect(keyword, (v) => typeof v === 'number', 'a number');
    for (const keyword of BOUNDS) expect(keyword, (v) => typeof v === 'number' || typeof v === 'boolean', 'a number');
    for (const keyword of FLAGS) expect(keyword, (v) => typeof v === 'boolean', 'true or false');
    for (const keyword of NAMES) expect(keyword, (v) => typeof v === 'string', 'a string');
    expect('multipleOf', (v) => typeof v === 'number' && v > 0, 'a number greater than 0');
    expect('enum', Array.isArray, 'a list of the allowed values');
    expect('items', (v) => typeof v === 'boolean' || isPlainObject(v) || Array.isArray(v), 'a schema');
    for (const keyword of SCHEMA_LISTS)
      expect(
        keyword,
        (v) => Array.isArray(v) && (keyword === 'prefixItems' || v.length > 0),
        'a non-empty list of schemas',
      );
    for (const keyword of SCHEMA_MAPS) expect(keyword, isPlainObject, 'an object of names to schemas');
    expect(
      'dependentRequired',
      (v) =>
        isPlainObject(v) &&
        Object.values(v).every((names) => Array.isArray(names) && names.every((n) => typeof n === 'string')),
      'an object of names to lists of property names',
    );
    if (isPlainObject(schema.dependencies)) {
      for (const [name, value] of Object.entries(schema.dependencies)) {
        if (Array.isArray(value) && !value.every((n) => typeof n === 'string'))
          problem(`dependencies.${name}`, 'must be a schema or a list of property names');
      }
    }

    forEachSubschema(schema, (sub, key) => visit(sub, `${where}${key}`));
  };

  visit(root, '');
  return problems;
}
