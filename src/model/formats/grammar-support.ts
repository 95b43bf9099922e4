/**
 * Schema features web-xgrammar 0.1.27 cannot compile (checked against its
 * wasm in Chromium and Node): a `$ref` that points nowhere, a regular
 * expression with lookaround or back-references, a `type` JSON Schema does
 * not have. Such a compile aborts the whole grammar, so a tool whose schema
 * has one is constrained by name only and its arguments are validated after
 * generation; the step says so in a notice.
 */
import type { JsonSchema } from '../../tools/declaration';
import { isRecord } from './read-calls';

const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
const UNSUPPORTED_REGEX = /\(\?<?[=!]|\\[1-9]|\\k</;

/** Why xgrammar cannot compile this argument schema, or undefined when it can. */
export function unsupportedSchemaReason(schema: JsonSchema): string | undefined {
  const seen = new Set<unknown>();
  const visit = (node: unknown, path: string): string | undefined => {
    if (!isRecord(node) || seen.has(node)) return undefined;
    seen.add(node);
    const at = path || '/';
    if (typeof node.$ref === 'string' && !resolves(schema, node.$ref))
      return `${at} refers to ${node.$ref}, which the schema does not define`;
    if (typeof node.pattern === 'string' && UNSUPPORTED_REGEX.test(node.pattern))
      return `${at} has the pattern ${JSON.stringify(node.pattern)} (lookaround and back-references are not supported)`;
    const types = Array.isArray(node.type) ? node.type : node.type === undefined ? [] : [node.type];
    const unknown = types.find((type) => typeof type !== 'string' || !TYPES.has(type));
    if (unknown !== undefined) return `${at} has the type ${JSON.stringify(unknown)}`;
    for (const [key, value] of Object.entries(node)) {
      let found: string | undefined;
      if (SCHEMA_MAPS.has(key) && isRecord(value))
        for (const [name, item] of Object.entries(value)) found ??= visit(item, `${path}/${key}/${name}`);
      else if (SCHEMA_LISTS.has(key) && Array.isArray(value))
        value.forEach((item, i) => (found ??= visit(item, `${path}/${key}/${i}`)));
      else if (SCHEMA_VALUES.has(key)) found = visit(value, `${path}/${key}`);
      if (found) return found;
    }
    return undefined;
  };
  return visit(schema, '');
}

const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
const SCHEMA_LISTS = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);
const SCHEMA_VALUES = new Set([
  'items',
  'additionalProperties',
  'additionalItems',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'unevaluatedProperties',
  'unevaluatedItems',
]);

function resolves(root: JsonSchema, ref: string): boolean {
  if (!ref.startsWith('#')) return false;
  let node: unknown = root;
  for (const part of ref.slice(1).split('/').filter(Boolean)) {
    const key = decodeURIComponent(part.replace(/~1/g, '/').replace(/~0/g, '~'));
    if (!isRecord(node) || !(key in node)) return false;
    node = node[key];
  }
  return true;
}
