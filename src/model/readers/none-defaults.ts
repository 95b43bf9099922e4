/**
 * Gemma's prompt shows each optional parameter as Python does, `name: str | None = None`,
 * and in Python a keyword argument passed as None is the default: not given. So in a
 * call written as Python (any family's reader of `name(a=1)`), an optional argument
 * passed as None is left out, since the tool's schema may not accept null. An argument
 * the schema requires, or whose schema accepts null, keeps its null (the validator
 * answers for it).
 */
import type { ToolDeclaration } from '../../tools/declaration';
import type { Schema } from '../../tools/json-schema-index';
import { validateJsonSchema } from '../../tools/json-schema-validate';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function withoutNoneDefaults(args: unknown, tool: ToolDeclaration | undefined): unknown {
  if (!tool || !isObject(args)) return args;
  const schema = tool.parameters;
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const properties = isObject(schema.properties) ? schema.properties : {};
  const kept = Object.entries(args).filter(
    ([key, value]) =>
      value !== null ||
      required.has(key) ||
      !(key in properties) ||
      validateJsonSchema(properties[key] as Schema, null).ok,
  );
  return kept.length === Object.keys(args).length ? args : Object.fromEntries(kept);
}
