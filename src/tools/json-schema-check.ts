/**
 * Problems in a JSON Schema itself, found once when a tool is made from it
 * (fromMCPTool). A broken schema is its author's bug: reported to the page
 * developer then, instead of surfacing later as a model's "invalid" call.
 */
import type { JsonSchema } from './declaration';
import { compilePattern, resolveRef } from './json-schema-validate';
import { isPlainObject } from './plain-copy';

const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'null', 'array', 'object']);
const SINGLE = [
  'additionalProperties',
  'items',
  'additionalItems',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
];
const LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'];
const MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];

/** Each problem names where it is, e.g. `properties.when.$ref "#/$defs/x" points nowhere`. */
export function jsonSchemaProblems(root: JsonSchema | boolean): string[] {
  const problems: string[] = [];
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

    if (schema.$ref !== undefined) {
      if (typeof schema.$ref !== 'string') problems.push(`${where}$ref must be a string`);
      else if (resolveRef(root, schema.$ref) === undefined) {
        problems.push(
          `${where}$ref "${schema.$ref}" points nowhere (only local references such as "#/$defs/name" are supported)`,
        );
      }
    }
    if (schema.type !== undefined) {
      const types = Array.isArray(schema.type) ? schema.type : [schema.type];
      for (const type of types) {
        if (typeof type !== 'string' || !TYPES.has(type))
          problems.push(`${where}type ${JSON.stringify(type)} is not a JSON Schema type`);
      }
    }
    if (
      schema.required !== undefined &&
      !(Array.isArray(schema.required) && schema.required.every((k) => typeof k === 'string'))
    ) {
      problems.push(`${where}required must be a list of property names`);
    }
    if (
      schema.pattern !== undefined &&
      (typeof schema.pattern !== 'string' || compilePattern(schema.pattern) === null)
    ) {
      problems.push(`${where}pattern ${JSON.stringify(schema.pattern)} is not a valid regular expression`);
    }
    if (isPlainObject(schema.patternProperties)) {
      for (const source of Object.keys(schema.patternProperties)) {
        if (compilePattern(source) === null)
          problems.push(`${where}patternProperties key ${JSON.stringify(source)} is not a valid regular expression`);
      }
    }

    for (const key of SINGLE) {
      if (schema[key] !== undefined && !Array.isArray(schema[key])) visit(schema[key], `${where}${key}`);
    }
    for (const key of LISTS) {
      const list = schema[key];
      if (Array.isArray(list)) list.forEach((sub, i) => visit(sub, `${where}${key}[${i}]`));
    }
    for (const key of MAPS) {
      const map = schema[key];
      if (isPlainObject(map)) for (const [name, sub] of Object.entries(map)) visit(sub, `${where}${key}.${name}`);
    }
  };

  visit(root, '');
  return problems;
}
