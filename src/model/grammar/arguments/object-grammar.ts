/**
 * An object's grammar, the arguments themselves or an object among their
 * values: its properties in the schema's order (sorted for Gemma 4, whose
 * template sorts them), the required ones always, and properties it does not
 * declare only where the schema asks for them (or declares none at all, a
 * free-form object), never repeating a declared one. Like xgrammar's strict
 * mode: never a model's inventions, never a repeated key.
 */
import { isRecord } from '../../readers/read-calls';
import { stringLiteral } from '../string-syntax';
import type { GrammarBuild } from './grammar-build';
import { COUNT_LIMIT, repeat } from './grammar-limits';
import { objectForm, type ObjectForm, type ObjectPlace } from './object-forms';
import { stringGrammar } from './string-grammar';

export function objectGrammar(
  build: GrammarBuild,
  schema: Record<string, unknown>,
  path: string,
  place: ObjectPlace,
): string | undefined {
  return place === 'root'
    ? objectBody(build, schema, path, place)
    : build.inside(() => objectBody(build, schema, path, place));
}

function objectBody(
  build: GrammarBuild,
  schema: Record<string, unknown>,
  path: string,
  place: ObjectPlace,
): string | undefined {
  const form = objectForm(build, place);
  const properties = isRecord(schema.properties) ? (schema.properties as Record<string, unknown>) : {};
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const additional = schema.additionalProperties;
  const entries = Object.keys(properties).map((name) => ({ name, schema: properties[name] }));
  for (const name of required)
    if (!(name in properties)) entries.push({ name, schema: additional === undefined ? true : additional });
  if (build.syntax === 'gemma4') entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  if ('patternProperties' in schema && additional !== false) build.loosen(path, 'patternProperties');
  if (isRecord(schema.propertyNames) && Object.keys(schema.propertyNames).some((key) => key !== 'type'))
    build.loosen(path, 'propertyNames');

  const open = additional === true || isRecord(additional) || (additional === undefined && !('properties' in schema));
  const others = open
    ? otherPair(
        build,
        entries.map((e) => e.name),
        additional,
        path,
        form,
      )
    : undefined;
  let minOthers = 0;
  let maxOthers = Infinity;
  for (const [key, bound] of [
    ['minProperties', 'min'],
    ['maxProperties', 'max'],
  ] as const) {
    const value = schema[key];
    if (typeof value !== 'number') continue;
    if (entries.length > 0 || (bound === 'min' && value > 1) || value > COUNT_LIMIT) build.loosen(path, key);
    else if (bound === 'min') minOthers = value;
    else maxOthers = value;
  }

  let first: string;
  let after: string;
  if (others === undefined) {
    if (minOthers > 0) return undefined;
    first = '""';
    after = '""';
  } else {
    first =
      minOthers === 0
        ? maxOthers === 0
          ? '""'
          : `(${others} ${repeat(`${form.separator} ${others}`, 0, maxOthers - 1)})?`
        : `${others} ${repeat(`${form.separator} ${others}`, minOthers - 1, maxOthers - 1)}`;
    after = repeat(`${form.separator} ${others}`, minOthers, maxOthers);
  }
  for (let i = entries.length - 1; i >= 0; i--) {
    const { name, schema: property } = entries[i];
    const value = propertyValue(build, property, `${path}/${name}`, place);
    const isRequired = required.has(name);
    if (value === undefined) {
      if (isRequired) return undefined;
      continue;
    }
    // Python keyword arguments: an optional one may be passed as None, its default in the signature the
    // prompt shows (formats/gemma-tool-code.ts); the reader leaves it out (readers/none-defaults.ts).
    const given = place === 'root' && build.syntax === 'python' && !isRequired ? `(${value} | "None")` : value;
    const pair = form.pair(form.key(name, path), given);
    const afterRule = build.rule(after);
    const firstWith = `${pair} ${afterRule}`;
    const afterWith = `${form.separator} ${pair} ${afterRule}`;
    first = build.rule(isRequired ? firstWith : `${firstWith} | ${first}`);
    after = build.rule(isRequired ? afterWith : `${afterWith} | ${afterRule}`);
  }
  return build.rule(`${form.open} ${first} ${form.close}`);
}

/** A parameter of Qwen3.5's XML whose schema is a string is bare text; every other value is JSON. */
function propertyValue(build: GrammarBuild, schema: unknown, path: string, place: ObjectPlace): string | undefined {
  if (place !== 'root' || build.syntax !== 'xml') return build.value(schema, path);
  if (!isRecord(schema) || schema.type !== 'string') return build.atParameterTop(() => build.value(schema, path));
  if ('const' in schema) return typeof schema.const === 'string' ? stringLiteral('xml', schema.const) : undefined;
  if (Array.isArray(schema.enum))
    return build.choice(schema.enum.map((item) => (typeof item === 'string' ? stringLiteral('xml', item) : undefined)));
  return stringGrammar(build, schema, path, 'xml');
}

function otherPair(
  build: GrammarBuild,
  declared: string[],
  schema: unknown,
  path: string,
  form: ObjectForm,
): string | undefined {
  const key = form.otherKey(declared);
  const value = build.value(schema ?? true, `${path}/*`);
  if (key === undefined || value === undefined) return undefined;
  return build.rule(form.pair(key, value));
}
