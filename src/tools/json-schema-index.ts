/**
 * Where every part of a JSON Schema lives, worked out once per schema: the
 * schema resources (`$id`), the anchors (`$anchor`, `$dynamicAnchor`, draft-07's
 * `"$id": "#name"`), and what each `$ref` and `$dynamicRef` points to. The
 * index is kept per schema object (a WeakMap), so checking a call looks
 * things up instead of parsing URIs. It is the one resolution of references
 * there is: the validator follows `refTarget`, and so does the grammar
 * (model/grammar), so a reference the one follows the other follows too.
 *
 * A tool's schema must be self-contained: the worker fetches nothing. A
 * reference to any document outside the schema (another URL, a metaschema)
 * is recorded as unresolved, and json-schema-check.ts refuses the schema.
 */
import type { JsonSchema } from './declaration';
import { isPlainObject } from './plain-copy';

export type Schema = JsonSchema | boolean;

/** Where a schema without `$id` lives, so that its relative references resolve. */
const DOCUMENT_URI = 'inpage-agent:/schema.json';

/** Keywords whose value is one subschema, a list of them, or a map of names to them. */
const SINGLE = [
  'additionalProperties',
  'additionalItems',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contentSchema',
] as const;
const LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'] as const;
const MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'] as const;

export interface DynamicRefSite {
  /** Where the reference points before the dynamic scope is consulted. */
  target: Schema | undefined;
  /** Set when that target carries a matching `$dynamicAnchor`: then the outermost such anchor in scope wins. */
  anchor?: string;
}

export interface UnresolvedRef {
  /** e.g. `properties.when.$ref` */
  at: string;
  ref: string;
}

export interface SchemaIndex {
  /** Draft-07 and older: `$ref` stands alone and its siblings are ignored. */
  legacy: boolean;
  /** The URI of the resource each schema object belongs to: the dynamic scope is a list of these. */
  resourceOf: Map<object, string>;
  refs: Map<object, Schema | undefined>;
  dynamicRefs: Map<object, DynamicRefSite>;
  /** Resource URI → `$dynamicAnchor` name → the schema that carries it. */
  dynamicAnchors: Map<string, Map<string, Schema>>;
  /** Whether any subschema uses unevaluatedProperties/unevaluatedItems: only then are evaluated locations tracked. */
  tracksEvaluation: boolean;
  unresolved: UnresolvedRef[];
  /**
   * Where `ref`, written in `from`, points: what `refs` holds for the objects of the schema, worked out for
   * one it does not hold (a copy the grammar made by merging allOf's parts), from the resource `from` is in.
   */
  resolve(ref: string, from: object): Schema | undefined;
}

const LEGACY_DIALECT = /^https?:\/\/json-schema\.org\/draft-0[3-7]\/schema#?$/;

const indexes = new WeakMap<object, SchemaIndex>();

export function indexSchema(root: Schema): SchemaIndex {
  if (typeof root === 'object' && root !== null) {
    const known = indexes.get(root);
    if (known) return known;
  }
  const index = buildIndex(root);
  if (typeof root === 'object' && root !== null) indexes.set(root, index);
  return index;
}

/** Where `schema`'s `$ref` points in `index`'s schema; undefined when nowhere (json-schema-check.ts refuses that). */
export function refTarget(index: SchemaIndex, schema: JsonSchema): Schema | undefined {
  if (index.refs.has(schema)) return index.refs.get(schema);
  return typeof schema.$ref === 'string' ? index.resolve(schema.$ref, schema) : undefined;
}

/** Each subschema of `schema` with the dotted path of keywords that leads to it. */
export function forEachSubschema(schema: JsonSchema, visit: (sub: unknown, at: string) => void): void {
  for (const key of SINGLE) if (schema[key] !== undefined) visit(schema[key], key);
  if (schema.items !== undefined) {
    if (Array.isArray(schema.items)) schema.items.forEach((sub, i) => visit(sub, `items[${i}]`));
    else visit(schema.items, 'items');
  }
  for (const key of LISTS) {
    const list = schema[key];
    if (Array.isArray(list)) list.forEach((sub, i) => visit(sub, `${key}[${i}]`));
  }
  for (const key of MAPS) {
    const map = schema[key];
    if (isPlainObject(map)) for (const name of Object.keys(map)) visit(map[name], `${key}.${name}`);
  }
  // Draft-07's dependencies: a list of names (no subschema) or a subschema.
  if (isPlainObject(schema.dependencies)) {
    for (const name of Object.keys(schema.dependencies)) {
      const value = schema.dependencies[name];
      if (!Array.isArray(value)) visit(value, `dependencies.${name}`);
    }
  }
}

interface RefSite {
  schema: JsonSchema;
  keyword: '$ref' | '$dynamicRef';
  ref: string;
  base: string;
  at: string;
}

function buildIndex(root: Schema): SchemaIndex {
  const legacy = isPlainObject(root) && typeof root.$schema === 'string' && LEGACY_DIALECT.test(root.$schema);
  const index: SchemaIndex = {
    legacy,
    resourceOf: new Map(),
    refs: new Map(),
    dynamicRefs: new Map(),
    dynamicAnchors: new Map(),
    tracksEvaluation: false,
    unresolved: [],
    resolve: (ref, from) => resolve(ref, index.resourceOf.get(from) ?? DOCUMENT_URI),
  };
  const resources = new Map<string, Schema>([[DOCUMENT_URI, root]]);
  const anchors = new Map<string, Schema>();
  const sites: RefSite[] = [];

  const visit = (node: unknown, base: string, at: string): void => {
    if (!isPlainObject(node) || index.resourceOf.has(node)) return;
    let here = base;
    // Draft-07: "$ref" stands alone, so a sibling "$id" changes nothing.
    const refAlone = legacy && typeof node.$ref === 'string';
    if (typeof node.$id === 'string' && !refAlone) {
      const uri = resolveUri(node.$id, base);
      if (uri !== undefined) {
        const [document, fragment] = splitFragment(uri);
        if (document !== withoutFragment(base) || fragment === '') {
          here = document;
          resources.set(document, node);
        }
        // Draft-07 named a location with "$id": "#name".
        if (fragment !== '' && !fragment.startsWith('/')) anchors.set(`${document}#${fragment}`, node);
      }
    }
    const resource = withoutFragment(here);
    index.resourceOf.set(node, resource);
    if (typeof node.$anchor === 'string' && !refAlone) anchors.set(`${resource}#${node.$anchor}`, node);
    if (typeof node.$dynamicAnchor === 'string' && !refAlone) {
      anchors.set(`${resource}#${node.$dynamicAnchor}`, node);
      let names = index.dynamicAnchors.get(resource);
      if (!names) index.dynamicAnchors.set(resource, (names = new Map()));
      names.set(node.$dynamicAnchor, node);
    }
    if (node.unevaluatedProperties !== undefined || node.unevaluatedItems !== undefined) index.tracksEvaluation = true;
    const where = at ? `${at}.` : '';
    for (const keyword of ['$ref', '$dynamicRef'] as const) {
      const ref = node[keyword];
      if (typeof ref === 'string') sites.push({ schema: node, keyword, ref, base: here, at: `${where}${keyword}` });
    }
    // Under a draft-07 "$ref" the siblings are ignored, but "definitions" there can still be pointed to.
    forEachSubschema(node, (sub, key) => visit(sub, here, `${where}${key}`));
  };
  visit(root, DOCUMENT_URI, '');

  const resolve = (ref: string, base: string): Schema | undefined => {
    const uri = resolveUri(ref, base);
    if (uri === undefined) return undefined;
    const [document, fragment] = splitFragment(uri);
    const resource = resources.get(document);
    if (resource === undefined) return undefined;
    if (fragment === '') return resource;
    if (!fragment.startsWith('/')) return anchors.get(`${document}#${fragment}`);
    const target = followPointer(resource, fragment);
    // A pointer may lead where no keyword we know leads (say, into an unknown keyword): index it from there.
    if (isPlainObject(target) && !index.resourceOf.has(target)) visit(target, document, fragment);
    return target;
  };

  // Resolving a pointer may index more of the schema, and so find more references.
  for (let i = 0; i < sites.length; i++) {
    const site = sites[i]!;
    const target = resolve(site.ref, site.base);
    if (target === undefined) index.unresolved.push({ at: site.at, ref: site.ref });
    if (site.keyword === '$ref') {
      index.refs.set(site.schema, target);
      continue;
    }
    const fragment = splitFragment(resolveUri(site.ref, site.base) ?? '')[1];
    const anchored = isPlainObject(target) && target.$dynamicAnchor === fragment && fragment !== '';
    index.dynamicRefs.set(site.schema, { target, ...(anchored && { anchor: fragment }) });
  }
  return index;
}

function resolveUri(reference: string, base: string): string | undefined {
  try {
    return new URL(reference, base).href;
  } catch {
    return undefined;
  }
}

/** `[document, fragment]`; the fragment is decoded ("#/a%25b" → "/a%b" stays a pointer). */
function splitFragment(uri: string): [string, string] {
  const hash = uri.indexOf('#');
  if (hash === -1) return [uri, ''];
  return [uri.slice(0, hash), uri.slice(hash + 1)];
}

function withoutFragment(uri: string): string {
  return splitFragment(uri)[0];
}

/** RFC 6901 over a URI fragment: percent-decoding first, then ~1 and ~0. */
function followPointer(from: Schema, pointer: string): Schema | undefined {
  let current: unknown = from;
  for (const raw of pointer.slice(1).split('/')) {
    let token: string;
    try {
      token = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return undefined;
    }
    if (Array.isArray(current)) {
      if (!/^(0|[1-9]\d*)$/.test(token) || Number(token) >= current.length) return undefined;
      current = current[Number(token)];
    } else if (isPlainObject(current) && Object.prototype.hasOwnProperty.call(current, token)) {
      current = current[token];
    } else {
      return undefined;
    }
  }
  return typeof current === 'boolean' || isPlainObject(current) ? (current as Schema) : undefined;
}
