/**
 * Two JSON Schemas that must both hold (`allOf`, or a schema beside the
 * option of an `anyOf` it also has), as one schema a grammar can write. What
 * cannot be joined into one (two different patterns, two lists of options)
 * keeps the first and is named in `unmerged`: the grammar leaves it to the
 * validator.
 */
import type { JsonSchema } from '../../tools/declaration';
import { isRecord } from '../readers/read-calls';

const LOWER_BOUNDS = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties'];
const UPPER_BOUNDS = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties'];
/** Keywords that say something about a schema without constraining its values. */
export const ANNOTATIONS = new Set([
  'title',
  'description',
  'default',
  'examples',
  '$schema',
  '$id',
  '$comment',
  'deprecated',
]);

export function mergeSchemas(a: JsonSchema, b: JsonSchema): { schema: JsonSchema; unmerged: string[] } {
  const schema: Record<string, unknown> = { ...a };
  const unmerged: string[] = [];
  for (const [key, value] of Object.entries(b)) {
    if (ANNOTATIONS.has(key)) continue;
    if (!(key in schema)) {
      schema[key] = value;
      continue;
    }
    const mine = schema[key];
    if (JSON.stringify(mine) === JSON.stringify(value)) continue;
    if (key === 'type') schema.type = intersectTypes(mine, value);
    else if (key === 'required' && Array.isArray(mine) && Array.isArray(value))
      schema.required = [...new Set([...mine, ...value])];
    else if (key === 'properties' && isRecord(mine) && isRecord(value)) {
      const properties: Record<string, unknown> = { ...mine };
      for (const [name, property] of Object.entries(value))
        properties[name] = name in properties ? { allOf: [properties[name], property] } : property;
      schema.properties = properties;
    } else if ((key === 'additionalProperties' || key === 'items') && (mine === false || value === false))
      schema[key] = false;
    else if ((key === 'additionalProperties' || key === 'items') && isRecord(mine) && isRecord(value))
      schema[key] = { allOf: [mine, value] };
    else if (key === 'enum' && Array.isArray(mine) && Array.isArray(value)) {
      const theirs = new Set(value.map((item) => JSON.stringify(item)));
      schema.enum = mine.filter((item) => theirs.has(JSON.stringify(item)));
    } else if (key === 'const')
      schema.enum = []; // two different constants: nothing holds both
    else if (LOWER_BOUNDS.includes(key) && typeof mine === 'number' && typeof value === 'number')
      schema[key] = Math.max(mine, value);
    else if (UPPER_BOUNDS.includes(key) && typeof mine === 'number' && typeof value === 'number')
      schema[key] = Math.min(mine, value);
    else unmerged.push(key);
  }
  return { schema, unmerged };
}

function intersectTypes(a: unknown, b: unknown): unknown {
  const list = (types: unknown) => (Array.isArray(types) ? types : [types]) as unknown[];
  const theirs = list(b);
  const both = list(a).flatMap((type) => {
    if (theirs.includes(type)) return [type];
    if (type === 'integer' && theirs.includes('number')) return ['integer'];
    if (type === 'number' && theirs.includes('integer')) return ['integer'];
    return [];
  });
  return both.length === 1 ? both[0] : both;
}
