/**
 * Builds the grammar of a call's arguments from the tool's JSON Schema: the
 * rules written so far (each body once, so what tools share is compiled
 * once), what is left to the validator, and the way from a schema to its
 * values: references followed as the validator follows them (the one index
 * of tools/json-schema-index.ts), allOf merged, anyOf and oneOf as choices,
 * const and enum as literals, and each JSON type to its own builder
 * (type-grammars.ts).
 */
import type { JsonSchema } from '../../../tools/declaration';
import { indexSchema, refTarget, type SchemaIndex } from '../../../tools/json-schema-index';
import { isRecord } from '../../readers/read-calls';
import { ANNOTATIONS, mergeSchemas } from '../schema-merge';
import { anyStringRules, type ArgumentSyntax } from '../string-syntax';
import { anyGrammar } from './any-grammar';
import type { GrammarBuild, ValueSyntax } from './grammar-build';
import { GrammarUnsupported } from './grammar-unsupported';
import { literalGrammar } from './literal-grammar';
import { objectGrammar } from './object-grammar';
import type { ObjectPlace } from './object-forms';
import { exclusive, typesOf } from './schema-types';
import { TYPE_GRAMMARS } from './type-grammars';

/** What may follow a string inside a value of each syntax (its closing quote is the string's own). */
const FOLLOWS: Record<ArgumentSyntax, string> = {
  json: '[ \\n\\t]* [,}\\]:]',
  python: '[,)\\]}:]',
  gemma4: '[,}\\]:]',
  xml: '[ \\n\\t]* "</parameter>"',
};
const PARAMETER_END = FOLLOWS.xml;

const ANNOTATION = new Set([...ANNOTATIONS, '$defs', 'definitions']);

const KEYWORDS_LEFT_TO_VALIDATOR = [
  'not',
  'if',
  'dependentRequired',
  'dependentSchemas',
  'dependencies',
  'contains',
  'uniqueItems',
  'multipleOf',
  'unevaluatedProperties',
  'unevaluatedItems',
];

export class ArgumentsBuilder implements GrammarBuild {
  readonly loosened: string[] = [];
  parameterTop = false;
  private readonly rules: string[] = [];
  private readonly byBody = new Map<string, string>();
  private readonly byTarget = new Map<object, string>();
  private readonly byTargetAtTop = new Map<object, string>();
  private count = 0;
  /** Where the `$ref`s of the tool being built point. */
  private index: SchemaIndex = indexSchema({});

  constructor(readonly syntax: ArgumentSyntax) {}

  get values(): ValueSyntax {
    return this.syntax === 'xml' ? 'json' : this.syntax;
  }

  render(root: string): string {
    return [`root ::= ${root}`, ...this.rules].join('\n');
  }

  rule(body: string): string {
    let name = this.byBody.get(body);
    if (!name) {
      name = `r${this.count++}`;
      this.byBody.set(body, name);
      this.rules.push(`${name} ::= ${body}`);
    }
    return name;
  }

  shared(name: string, body: string): string {
    if (!this.hasShared(name)) {
      this.byBody.set(`#${name}`, name);
      this.rules.push(`${name} ::= ${body}`);
    }
    return name;
  }

  hasShared(name: string): boolean {
    return this.byBody.has(`#${name}`);
  }

  plainString(syntax: ArgumentSyntax): string {
    const top = syntax === 'xml' || (syntax === 'json' && this.parameterTop);
    const name = `string_${syntax}${top && syntax === 'json' ? '_parameter' : ''}`;
    if (!this.hasShared(name)) {
      this.byBody.set(`#${name}`, name);
      this.rules.push(...anyStringRules(syntax, name, top ? PARAMETER_END : FOLLOWS[syntax]));
    }
    return name;
  }

  inside<T>(build: () => T): T {
    return this.placed(false, build);
  }

  atParameterTop<T>(build: () => T): T {
    return this.placed(true, build);
  }

  loosen(path: string, what: string): void {
    const entry = `${path || '/'}: ${what}`;
    if (!this.loosened.includes(entry)) this.loosened.push(entry);
  }

  /** The tool's arguments, an object in the syntax's form for them. */
  arguments(schema: JsonSchema): string {
    this.index = indexSchema(schema);
    const resolved = this.resolved(schema, '');
    const object = this.objectOf(
      isRecord(resolved) && resolved.type === undefined ? { ...resolved, type: 'object' } : resolved,
      '',
      this.syntax === 'python' || this.syntax === 'xml' ? 'root' : 'value',
    );
    if (object === undefined) throw new GrammarUnsupported('no arguments satisfy the schema in this syntax');
    return object;
  }

  value(schema: unknown, path: string): string | undefined {
    if (schema === false) return undefined;
    if (!isRecord(schema)) return anyGrammar(this);
    if (typeof schema.$ref === 'string') return this.reference(schema, path);
    if (typeof schema.$dynamicRef === 'string')
      throw new GrammarUnsupported(`${path || '/'} uses $dynamicRef, which no grammar can follow`);
    if (Array.isArray(schema.allOf)) return this.value(this.mergedAllOf(schema, path), path);
    for (const key of ['anyOf', 'oneOf'] as const)
      if (Array.isArray(schema[key]))
        return this.choice(this.options(schema, key, path).map((option) => this.value(option, path)));

    for (const keyword of KEYWORDS_LEFT_TO_VALIDATOR) if (keyword in schema) this.loosen(path, keyword);
    const types = typesOf(schema);
    if ('const' in schema) return literalGrammar(this, schema.const, types);
    if (Array.isArray(schema.enum)) return this.choice(schema.enum.map((item) => literalGrammar(this, item, types)));
    if (types === undefined) return anyGrammar(this);
    return this.choice(types.map((type) => this.typed(type, schema, path)));
  }

  choice(options: (string | undefined)[]): string | undefined {
    const present = [...new Set(options.filter((option): option is string => option !== undefined))];
    if (present.length === 0) return undefined;
    return present.length === 1 ? present[0] : this.rule(present.join(' | '));
  }

  private placed<T>(top: boolean, build: () => T): T {
    const before = this.parameterTop;
    this.parameterTop = top;
    try {
      return build();
    } finally {
      this.parameterTop = before;
    }
  }

  private typed(type: string, schema: Record<string, unknown>, path: string): string | undefined {
    if (!Object.hasOwn(TYPE_GRAMMARS, type))
      throw new GrammarUnsupported(`${path || '/'} has the type ${JSON.stringify(type)}`);
    return TYPE_GRAMMARS[type]!(this, schema, path);
  }

  /** The schema with allOf, a $ref and anyOf/oneOf at its top merged or resolved, for the root's object form. */
  private resolved(schema: unknown, path: string): unknown {
    if (!isRecord(schema)) return schema;
    if (typeof schema.$ref === 'string') return this.resolved(this.target(schema, path), path);
    if (Array.isArray(schema.allOf)) return this.resolved(this.mergedAllOf(schema, path), path);
    return schema;
  }

  private objectOf(schema: unknown, path: string, place: ObjectPlace): string | undefined {
    if (!isRecord(schema)) return objectGrammar(this, {}, path, place);
    for (const key of ['anyOf', 'oneOf'] as const)
      if (Array.isArray(schema[key])) {
        const options = this.options(schema, key, path).map((option) => this.objectOf(option, path, place));
        return this.choice(options);
      }
    const types = typesOf(schema);
    if (types !== undefined && !types.includes('object'))
      throw new GrammarUnsupported('the arguments are not an object');
    return objectGrammar(this, schema, path, place);
  }

  private reference(schema: Record<string, unknown>, path: string): string | undefined {
    const ref = schema.$ref as string;
    const beside = Object.keys(schema).filter(
      (key) => !['$ref', '$defs', 'definitions'].includes(key) && !ANNOTATION.has(key),
    );
    if (beside.length) this.loosen(path, `${beside.join(', ')} beside $ref`);
    const target = this.target(schema, path);
    if (!isRecord(target)) return this.value(target, path);
    const targets = this.parameterTop ? this.byTargetAtTop : this.byTarget;
    let name = targets.get(target);
    if (name) return name;
    // Named before it is built, so that a schema may refer to itself.
    name = `r${this.count++}`;
    targets.set(target, name);
    const body = this.value(target, `${ref}`);
    if (body === undefined) throw new GrammarUnsupported(`${ref} allows no value`);
    this.rules.push(`${name} ::= ${body}`);
    return name;
  }

  /** Where `schema`'s `$ref` points, found as the validator finds it; a reference to nowhere holds no grammar. */
  private target(schema: Record<string, unknown>, path: string): unknown {
    const ref = schema.$ref as string;
    const target = refTarget(this.index, schema);
    if (target !== undefined) return target;
    throw new GrammarUnsupported(
      ref.startsWith('#')
        ? `${path || '/'} refers to ${ref}, which the schema does not define`
        : `${path || '/'} refers to ${ref}, outside the schema`,
    );
  }

  private mergedAllOf(schema: Record<string, unknown>, path: string): JsonSchema {
    const { allOf, ...rest } = schema;
    let merged: JsonSchema = rest;
    for (const part of allOf as unknown[]) {
      const resolved = this.resolved(part, path);
      if (!isRecord(resolved)) {
        if (resolved === false) return { enum: [] };
        continue;
      }
      const { schema: next, unmerged } = mergeSchemas(merged, resolved);
      for (const key of unmerged) this.loosen(path, `${key} of allOf`);
      merged = next;
    }
    return merged;
  }

  /** The options of anyOf/oneOf, each joined with what the schema says beside them. */
  private options(schema: Record<string, unknown>, key: 'anyOf' | 'oneOf', path: string): unknown[] {
    const { [key]: list, ...rest } = schema;
    const options = list as unknown[];
    if (key === 'oneOf' && !exclusive(options.map((option) => this.resolved(option, path))))
      this.loosen(path, 'oneOf (a value two options accept)');
    const beside = Object.keys(rest).some((name) => !ANNOTATION.has(name));
    if (!beside) return options;
    return options.map((option) => {
      const resolved = this.resolved(option, path);
      if (!isRecord(resolved)) return resolved === true ? rest : resolved;
      const { schema: merged, unmerged } = mergeSchemas(rest, resolved);
      for (const name of unmerged) this.loosen(path, `${name} beside ${key}`);
      return merged;
    });
  }
}
