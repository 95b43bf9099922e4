/**
 * BFCL's type names, in one place: the JSON Schema a tool is declared with,
 * and the Python type BFCL's checker expects a value to have.
 *
 * The JSON Schema side follows BFCL's own mapping for function-calling models
 * (constants/type_mappings.py, GORILLA_TO_OPENAPI): `float` is a number,
 * `tuple` an array, `dict` an object, and `any` a string, which is also what
 * the checker expects of it (PYTHON_TYPE_MAPPING in ast_checker.py). A missing
 * or unknown type is a string, as BFCL casts it.
 */
import type { JsonSchema } from '../../src/tools/declaration';
import type { PyType } from './python-values';
import type { BfclFunction, BfclParam } from './types';

export const BFCL_TYPES: Readonly<Record<string, { schema: string; python: PyType }>> = {
  string: { schema: 'string', python: 'str' },
  integer: { schema: 'integer', python: 'int' },
  float: { schema: 'number', python: 'float' },
  boolean: { schema: 'boolean', python: 'bool' },
  array: { schema: 'array', python: 'list' },
  tuple: { schema: 'array', python: 'list' },
  dict: { schema: 'object', python: 'dict' },
  any: { schema: 'string', python: 'str' },
};

const FALLBACK = BFCL_TYPES.string!;

/** What BFCL's type name means; a missing or unknown one is a string. */
export function bfclType(name: string | undefined): { schema: string; python: PyType } {
  return (name !== undefined && Object.hasOwn(BFCL_TYPES, name) && BFCL_TYPES[name]) || FALLBACK;
}

/** JSON Schema keywords BFCL's docs use that mean the same there; anything else (e.g. `optional`) is left out. */
const KEPT = ['description', 'enum', 'default', 'format', 'minimum', 'maximum', 'minItems', 'maxItems'] as const;

/** A parameter's JSON Schema. */
export function paramSchema(param: BfclParam): JsonSchema {
  const schema: JsonSchema = { type: bfclType(param.type).schema };
  for (const key of KEPT) if (param[key] !== undefined) schema[key] = structuredClone(param[key]);
  if (param.items && typeof param.items === 'object') schema.items = paramSchema(param.items);
  if (param.properties && typeof param.properties === 'object')
    Object.assign(schema, objectSchema(param.properties, param.required));
  // BFCL's docs put a list's allowed items on the list (`enum` of strings on an array, 22 times):
  // as written, no list could be valid, so it is read as the items' enum.
  if (schema.type === 'array' && Array.isArray(schema.enum) && !schema.enum.some(Array.isArray)) {
    schema.items = { ...(schema.items as JsonSchema | undefined), enum: schema.enum };
    delete schema.enum;
  }
  return schema;
}

/**
 * A function's arguments as an object schema. Keys it does not declare are
 * refused (`additionalProperties: false`): the checker judges any such key
 * an unexpected parameter, so no arm should be told it may write one. Keys
 * of a nested dict are not held so: the checker compares them only with the
 * answers, and BFCL's docs declare placeholder keys there ("param1… replace
 * with actual parameter names").
 */
export function parametersSchema(fn: BfclFunction): JsonSchema {
  return {
    type: 'object',
    ...objectSchema(fn.parameters.properties ?? {}, fn.parameters.required),
    additionalProperties: false,
  };
}

function objectSchema(properties: Record<string, BfclParam>, required: unknown): JsonSchema {
  return {
    properties: Object.fromEntries(Object.entries(properties).map(([key, param]) => [key, paramSchema(param)])),
    ...(Array.isArray(required) && required.length > 0 && { required: [...required] }),
  };
}
