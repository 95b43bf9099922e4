/**
 * The JSON types a grammar writes for a schema: those it declares (nullable
 * adds null), or the one its keywords imply, since a grammar cannot write
 * "any value, but a string of at least 3 characters if it is a string".
 */
import { isRecord } from '../../readers/read-calls';

/** The declared types (nullable adds null), or the type its keywords imply, or undefined for any type. */
export function typesOf(schema: Record<string, unknown>): string[] | undefined {
  let types: string[] | undefined;
  if (typeof schema.type === 'string') types = [schema.type];
  else if (Array.isArray(schema.type)) types = schema.type.filter((type): type is string => typeof type === 'string');
  else {
    const implied = new Set<string>();
    for (const [type, keys] of IMPLIED_TYPES) if (keys.some((key) => key in schema)) implied.add(type);
    types = implied.size ? [...implied] : undefined;
  }
  if (types && schema.nullable === true && !types.includes('null')) types.push('null');
  return types;
}

const IMPLIED_TYPES: [string, string[]][] = [
  ['object', ['properties', 'required', 'additionalProperties', 'minProperties', 'maxProperties', 'patternProperties']],
  ['array', ['items', 'prefixItems', 'minItems', 'maxItems']],
  ['string', ['pattern', 'format', 'minLength', 'maxLength']],
  ['number', ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum']],
];

/**
 * Whether no value can pass two options of a oneOf: options of different
 * types (integer and number overlap), or objects that require one property
 * with a different const in each (a discriminated union).
 */
export function exclusive(options: unknown[]): boolean {
  if (options.length < 2) return true;
  if (!options.every(isRecord)) return false;
  const records = options as Record<string, unknown>[];
  const types = records.map((option) => typesOf(option));
  if (types.every((list) => list?.length === 1)) {
    const names = types.map((list) => (list![0] === 'integer' ? 'number' : list![0]));
    if (new Set(names).size === names.length) return true;
  }
  const first = records[0];
  if (!isRecord(first.properties)) return false;
  return Object.keys(first.properties).some((key) => {
    const values = records.map((option) => {
      const property = isRecord(option.properties) ? option.properties[key] : undefined;
      const needed = Array.isArray(option.required) && option.required.includes(key);
      return needed && isRecord(property) && 'const' in property ? JSON.stringify(property.const) : undefined;
    });
    return values.every((value) => value !== undefined) && new Set(values).size === values.length;
  });
}
