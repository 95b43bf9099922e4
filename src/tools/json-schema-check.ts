/**
 * Problems in a JSON Schema itself, found once when a tool is made from it
 * (fromMCPTool). A broken schema is its author's bug: reported to the page
 * developer then, instead of surfacing later as a model's "invalid" call. A
 * reference must point inside the schema: the worker fetches nothing.
 */
import type { JsonSchema } from './declaration';
import { forEachSubschema, indexSchema } from './json-schema-index';
import { compilePattern } from './json-schema-validate';
import { isPlainObject } from './plain-copy';

const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'null', 'array', 'object']);

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
      else if ((keyword === '$ref' ? index.refs.get(schema) : index.dynamicRefs.get(schema)?.target) === undefined) {
        problem(keyword, `"${ref}" points nowhere (only local references such as "#/$defs/name" are supported)`);
      }
    }
    if (schema.type !== undefined) {
      const types = Array.isArray(schema.type) ? schema.type : [schema.type];
      for (const type of types) {
        if (typeof type !== 'string' || !TYPES.has(type))
          problem('type', `${JSON.stringify(type)} is not a JSON Schema type`);
      }
    }
    if (
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

    forEachSubschema(schema, (sub, key) => visit(sub, `${where}${key}`));
  };

  visit(root, '');
  return problems;
}
