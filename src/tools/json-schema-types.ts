/**
 * What each JSON Schema `type` holds, as the validator judges it and the
 * grammar writes it (model/grammar): a literal the grammar writes for a const
 * or an enum is of one of the declared types by this same judgement.
 */
import { isPlainObject } from './plain-copy';

/** Whether `value` is of the JSON Schema `type`. */
export function hasType(type: string, value: unknown): boolean {
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
      // An unknown type name constrains nothing (json-schema-check.ts refuses it when a tool is made).
      return true;
  }
}
