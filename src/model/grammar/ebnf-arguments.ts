/**
 * The grammar (xgrammar's EBNF) of a call's arguments, typed by the tool's
 * JSON Schema, in the syntax its format writes them: JSON, Qwen3.5's XML
 * parameters, Python keyword arguments (Gemma's ```tool_code) or Gemma 4's
 * `{key:<|"|>text<|"|>}`.
 *
 * The promise: every call the grammar allows passes the validator
 * (tools/validate-args.ts), and every valid call has a text the grammar
 * allows, except where the grammar says otherwise. Types, enum and const,
 * required properties, additionalProperties, number bounds (exactly:
 * number-range.ts), patterns and the validator's formats (regex-pattern.ts),
 * string lengths up to LENGTH_LIMIT, list lengths up to COUNT_LIMIT, anyOf,
 * oneOf, allOf and $ref (recursion included) are held. What it does not hold
 * is listed in `loosened`, and the validator answers it after generation:
 * longer length bounds (each bounded character is a grammar state, and every
 * state costs a pass over the vocabulary when web-llm compiles the step's
 * grammar: maxLength 60 costs seconds), multipleOf, uniqueItems, not,
 * if/then/else, dependencies, contains, property-name rules, and the overlap
 * of oneOf options. What no grammar can hold (lookaround in a pattern, an
 * unknown type, a reference to nowhere) is refused (GrammarUnsupported), and
 * the plan constrains that tool by its name only.
 *
 * Properties come in the schema's order (sorted for Gemma 4, whose template
 * sorts them); a property that is not declared never repeats a declared one.
 */
import type { JsonSchema } from '../../tools/declaration';
import { hasType } from '../../tools/json-schema-validate';
import { ANY_CHAR, charSet, ebnfClass, ebnfLiteral, hasChar, isEmpty, subtract, type CharSet } from './char-set';
import { formatPattern } from './grammar-formats';
import { numberGrammar } from './number-range';
import { isRecord } from '../readers/read-calls';
import { parsePattern, UnsupportedPattern, type Regex } from './regex-pattern';
import { ANNOTATIONS, mergeSchemas } from './schema-merge';
import { anyStringRules, delimiters, oneOf, patternChar, stringLiteral, type ArgumentSyntax } from './string-syntax';

export type { ArgumentSyntax };

/** JSON's whitespace between tokens, written where it stands (a rule of its own costs mask time at every step). */
const WS = '[ \\n\\t]*';
/** A const or enum value nested deeper than this is not written (the grammar would nest as deep). */
const MAX_LITERAL_DEPTH = 16;
/** String length bounds the grammar holds, in characters. */
const LENGTH_LIMIT = 8;
/** Repetition counts (in patterns) and list lengths the grammar holds. */
const COUNT_LIMIT = 16;
/** The copies nested repetitions of a pattern may expand to together. */
const EXPANSION_LIMIT = 64;

export class GrammarUnsupported extends Error {}

export interface ArgumentsGrammar {
  /** EBNF whose `root` is the arguments. */
  grammar: string;
  /** What the grammar leaves to the validator, each with where it is in the schema. */
  loosened: string[];
}

/** The arguments of one tool: the root of the grammar. */
export function argumentsGrammar(schema: JsonSchema, syntax: ArgumentSyntax): ArgumentsGrammar {
  const builder = new GrammarBuilder(syntax);
  const root = builder.arguments(schema);
  return { grammar: builder.render(root), loosened: builder.loosened };
}

/** `[{"name": …, "arguments": {…}}, …]`: one or more calls to `tools`, in JSON (SmolLM2, Phi-4-mini). */
export function callListGrammar(tools: readonly { name: string; schema: JsonSchema }[]): ArgumentsGrammar {
  const builder = new GrammarBuilder('json');
  const calls = tools.map(({ name, schema }) => {
    const args = builder.arguments(schema);
    return builder.rule(
      `"{" ${WS} "\\"name\\"" ${WS} ":" ${WS} ${ebnfLiteral(JSON.stringify(name))} ${WS} "," ${WS} "\\"arguments\\"" ${WS} ":" ${WS} ${args} ${WS} "}"`,
    );
  });
  const call = builder.rule(calls.join(' | '));
  return {
    grammar: builder.render(`"[" ${WS} ${call} (${WS} "," ${WS} ${call})* ${WS} "]"`),
    loosened: builder.loosened,
  };
}

/** One tool as an alternative of a step's call grammar: the text naming it, its arguments (absent: none), what follows them. */
export interface CallAlternative {
  head: string;
  schema?: JsonSchema;
  tail?: string;
}

/**
 * One call to any of `tools`, each its head, its arguments in `syntax` and its
 * tail: one grammar, so that the rules their arguments share (strings,
 * numbers, whitespace) are written, and compiled, once.
 */
export function oneCallGrammar(syntax: ArgumentSyntax, tools: readonly CallAlternative[]): string {
  const builder = new GrammarBuilder(syntax);
  const calls = tools.map(({ head, schema, tail }) =>
    [ebnfLiteral(head), schema && builder.arguments(schema), tail && ebnfLiteral(tail)].filter(Boolean).join(' '),
  );
  return builder.render(calls.join(' | '));
}

/** Any arguments at all (a relaxed tool in the Python or Gemma 4 syntax): validated after generation. */
export function freeArgumentsGrammar(syntax: 'python' | 'gemma4'): string {
  const builder = new GrammarBuilder(syntax);
  return builder.render(builder.arguments(FREE_OBJECT));
}

/** Any arguments at all. */
export const FREE_OBJECT = { type: 'object', additionalProperties: true };

type ValueSyntax = Exclude<ArgumentSyntax, 'xml'>;

interface ObjectSyntax {
  open: string;
  close: string;
  separator: string;
  pair(key: string, value: string): string;
  /** A declared property's name as written. */
  key(name: string, path: string): string;
  /** Any other property name, as written, that is none of `declared`. */
  otherKey(declared: readonly string[]): string | undefined;
}

const IDENTIFIER_START = charSet([0x41, 0x5a], [0x61, 0x7a], '_');
const IDENTIFIER_REST = charSet([0x30, 0x39], [0x41, 0x5a], [0x61, 0x7a], '_');
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const JSON_KEY_CHAR = subtract(ANY_CHAR, charSet('"\\\r\n'));

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

class GrammarBuilder {
  readonly loosened: string[] = [];
  private readonly rules: string[] = [];
  private readonly byBody = new Map<string, string>();
  private readonly byTarget = new Map<object, string>();
  private readonly byTargetAtTop = new Map<object, string>();
  private count = 0;
  /** The schema `$ref`s of the tool being built point into. */
  private root: JsonSchema = {};
  /** Building the whole value of a Qwen3.5 parameter (JSON that `</parameter>` follows), not a part of one. */
  private parameterTop = false;

  constructor(private readonly syntax: ArgumentSyntax) {}

  /** Values inside the arguments: Qwen3.5's parameters hold JSON. */
  private get values(): ValueSyntax {
    return this.syntax === 'xml' ? 'json' : this.syntax;
  }

  render(root: string): string {
    return [`root ::= ${root}`, ...this.rules].join('\n');
  }

  readonly ruleOf = (body: string): string => this.rule(body);

  /** A named rule for `body`, shared by every use of the same body. */
  rule(body: string): string {
    let name = this.byBody.get(body);
    if (!name) {
      name = `r${this.count++}`;
      this.byBody.set(body, name);
      this.rules.push(`${name} ::= ${body}`);
    }
    return name;
  }

  private shared(name: string, body: string): string {
    if (!this.byBody.has(`#${name}`)) {
      this.byBody.set(`#${name}`, name);
      this.rules.push(`${name} ::= ${body}`);
    }
    return name;
  }

  /** Any string of `syntax` where it stands now, as a shared rule. */
  private plainString(syntax: ArgumentSyntax): string {
    const top = syntax === 'xml' || (syntax === 'json' && this.parameterTop);
    const name = `string_${syntax}${top && syntax === 'json' ? '_parameter' : ''}`;
    if (!this.byBody.has(`#${name}`)) {
      this.byBody.set(`#${name}`, name);
      this.rules.push(...anyStringRules(syntax, name, top ? PARAMETER_END : FOLLOWS[syntax]));
    }
    return name;
  }

  /** Builds the values inside a list or an object: none of them is a parameter's whole value. */
  private inside<T>(build: () => T): T {
    const top = this.parameterTop;
    this.parameterTop = false;
    try {
      return build();
    } finally {
      this.parameterTop = top;
    }
  }

  private loosen(path: string, what: string): void {
    const entry = `${path || '/'}: ${what}`;
    if (!this.loosened.includes(entry)) this.loosened.push(entry);
  }

  /** The tool's arguments, an object in the syntax's form for them. */
  arguments(schema: JsonSchema): string {
    this.root = schema;
    const resolved = this.resolved(schema, '');
    const object = this.objectOf(
      isRecord(resolved) && resolved.type === undefined ? { ...resolved, type: 'object' } : resolved,
      '',
      this.syntax === 'python' || this.syntax === 'xml' ? 'root' : 'value',
    );
    if (object === undefined) throw new GrammarUnsupported('no arguments satisfy the schema in this syntax');
    return object;
  }

  /** The schema with allOf, a $ref and anyOf/oneOf at its top merged or resolved, for the root's object form. */
  private resolved(schema: unknown, path: string): unknown {
    if (!isRecord(schema)) return schema;
    if (typeof schema.$ref === 'string') return this.resolved(this.target(schema.$ref, path), path);
    if (Array.isArray(schema.allOf)) return this.resolved(this.mergedAllOf(schema, path), path);
    return schema;
  }

  private objectOf(schema: unknown, path: string, form: 'root' | 'value'): string | undefined {
    if (!isRecord(schema)) return this.object({}, path, form);
    for (const key of ['anyOf', 'oneOf'] as const)
      if (Array.isArray(schema[key])) {
        const options = this.options(schema, key, path).map((option) => this.objectOf(option, path, form));
        return this.choice(options);
      }
    const types = typesOf(schema);
    if (types !== undefined && !types.includes('object'))
      throw new GrammarUnsupported('the arguments are not an object');
    return this.object(schema, path, form);
  }

  // ---- values -------------------------------------------------------------------------------

  private value(schema: unknown, path: string): string | undefined {
    if (schema === false) return undefined;
    if (!isRecord(schema)) return this.any();
    if (typeof schema.$ref === 'string') return this.reference(schema, path);
    if (typeof schema.$dynamicRef === 'string')
      throw new GrammarUnsupported(`${path || '/'} uses $dynamicRef, which no grammar can follow`);
    if (Array.isArray(schema.allOf)) return this.value(this.mergedAllOf(schema, path), path);
    for (const key of ['anyOf', 'oneOf'] as const)
      if (Array.isArray(schema[key]))
        return this.choice(this.options(schema, key, path).map((option) => this.value(option, path)));

    for (const keyword of KEYWORDS_LEFT_TO_VALIDATOR) if (keyword in schema) this.loosen(path, keyword);
    const types = typesOf(schema);
    if ('const' in schema) return this.literal(schema.const, types);
    if (Array.isArray(schema.enum)) return this.choice(schema.enum.map((item) => this.literal(item, types)));
    if (types === undefined) return this.any();
    return this.choice(types.map((type) => this.typed(type, schema, path)));
  }

  private reference(schema: Record<string, unknown>, path: string): string | undefined {
    const ref = schema.$ref as string;
    const beside = Object.keys(schema).filter(
      (key) => !['$ref', '$defs', 'definitions'].includes(key) && !ANNOTATION.has(key),
    );
    if (beside.length) this.loosen(path, `${beside.join(', ')} beside $ref`);
    const target = this.target(ref, path);
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

  private target(ref: string, path: string): unknown {
    let node: unknown = this.root;
    if (!ref.startsWith('#')) throw new GrammarUnsupported(`${path || '/'} refers to ${ref}, outside the schema`);
    for (const part of ref.slice(1).split('/').filter(Boolean)) {
      const key = decodeURIComponent(part.replace(/~1/g, '/').replace(/~0/g, '~'));
      if (!isRecord(node) && !Array.isArray(node)) node = undefined;
      else node = (node as Record<string, unknown>)[key];
      if (node === undefined)
        throw new GrammarUnsupported(`${path || '/'} refers to ${ref}, which the schema does not define`);
    }
    return node;
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

  private choice(options: (string | undefined)[]): string | undefined {
    const present = [...new Set(options.filter((option): option is string => option !== undefined))];
    if (present.length === 0) return undefined;
    return present.length === 1 ? present[0] : this.rule(present.join(' | '));
  }

  private typed(type: string, schema: Record<string, unknown>, path: string): string | undefined {
    switch (type) {
      case 'string':
        return this.string(schema, path, this.values);
      case 'integer':
      case 'number': {
        const grammar = numberGrammar({ integer: type === 'integer', ...numberBounds(schema) });
        return grammar === undefined ? undefined : this.rule(grammar);
      }
      case 'boolean':
        return this.values === 'python' ? '("True" | "False")' : '("true" | "false")';
      case 'null':
        return this.values === 'python' ? '"None"' : '"null"';
      case 'array':
        return this.array(schema, path);
      case 'object':
        return this.object(schema, path, 'value');
      default:
        throw new GrammarUnsupported(`${path || '/'} has the type ${JSON.stringify(type)}`);
    }
  }

  // ---- strings ------------------------------------------------------------------------------

  private string(schema: Record<string, unknown>, path: string, syntax: ArgumentSyntax): string | undefined {
    const pattern = typeof schema.pattern === 'string' ? schema.pattern : undefined;
    const format = typeof schema.format === 'string' ? formatPattern(schema.format) : undefined;
    const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
    const maxLength = typeof schema.maxLength === 'number' ? schema.maxLength : undefined;
    const bounded = minLength > 0 || maxLength !== undefined;
    if (pattern !== undefined || format !== undefined) {
      if (pattern !== undefined && format !== undefined)
        this.loosen(path, `format "${schema.format}" beside a pattern`);
      if (bounded) this.loosen(path, 'length beside a pattern or format');
      return this.pattern(pattern ?? format!, path, syntax);
    }
    if (bounded) return this.bounded(minLength, maxLength, path, syntax);
    return this.plainString(syntax);
  }

  private pattern(source: string, path: string, syntax: ArgumentSyntax): string | undefined {
    let tree: Regex;
    try {
      tree = parsePattern(source);
    } catch (error) {
      if (!(error instanceof UnsupportedPattern)) throw error;
      throw new GrammarUnsupported(`${path || '/'} has the pattern ${JSON.stringify(source)}: ${error.message}`);
    }
    const body = this.regex(tree, path, syntax);
    if (body === undefined)
      throw new GrammarUnsupported(
        `${path || '/'} has the pattern ${JSON.stringify(source)}, which no string written in this syntax matches`,
      );
    const { open, close } = delimiters(syntax);
    return this.rule(`${open} ${body} ${close}`);
  }

  /** `scale`: how many copies of this part the repetitions around it make xgrammar expand. */
  private regex(node: Regex, path: string, syntax: ArgumentSyntax, scale = 1): string | undefined {
    switch (node.kind) {
      case 'chars':
        return patternChar(syntax, node.set);
      case 'sequence': {
        const items = node.items.map((item) => this.regex(item, path, syntax, scale));
        if (items.some((item) => item === undefined)) return undefined;
        return items.length === 0 ? '""' : `(${items.join(' ')})`;
      }
      case 'choice': {
        const options = node.options.map((option) => this.regex(option, path, syntax, scale)).filter(Boolean);
        return options.length ? `(${options.join(' | ')})` : undefined;
      }
      case 'repeat': {
        let { min, max } = node;
        // A repetition is expanded into copies; nested ones multiply, and so does the compile time.
        if (max !== Infinity && (max > COUNT_LIMIT || scale * max > EXPANSION_LIMIT)) {
          this.loosen(path, `pattern repetition {${min},${max}}`);
          max = Infinity;
        }
        if (min > COUNT_LIMIT || scale * min > EXPANSION_LIMIT) {
          this.loosen(path, `pattern repetition {${min},}`);
          min = Math.min(COUNT_LIMIT, Math.floor(EXPANSION_LIMIT / scale));
        }
        const item = this.regex(node.item, path, syntax, scale * Math.max(1, min, max === Infinity ? 1 : max));
        if (item === undefined) return node.min === 0 ? '""' : undefined;
        return repeat(`(${item})`, min, max);
      }
    }
  }

  private bounded(minLength: number, maxLength: number | undefined, path: string, syntax: ArgumentSyntax): string {
    let min = minLength;
    let max = maxLength;
    if (min > LENGTH_LIMIT) {
      this.loosen(path, `minLength ${min}`);
      min = LENGTH_LIMIT;
    }
    if (max !== undefined && max > LENGTH_LIMIT) {
      this.loosen(path, `maxLength ${max}`);
      max = undefined;
    }
    const { open, close } = delimiters(syntax);
    const unit = oneOf(syntax, ANY_CHAR)!;
    const edge = oneOf(syntax, ANY_CHAR, true)!;
    let body: string;
    if (edge === unit) body = repeat(unit, min, max ?? Infinity);
    else {
      // The first and last character may not be whitespace (xml).
      const options: string[] = [];
      if (min === 0) options.push('""');
      if (min <= 1 && (max === undefined || max >= 1)) options.push(edge);
      if (max === undefined || max >= 2)
        options.push(`${edge} ${repeat(unit, Math.max(0, min - 2), max === undefined ? Infinity : max - 2)} ${edge}`);
      body = `(${options.join(' | ')})`;
    }
    return this.rule(`${open} ${body} ${close}`);
  }

  // ---- literals -----------------------------------------------------------------------------

  /** A const or enum value as written, or undefined when the declared type rules it out or the syntax cannot write it. */
  private literal(
    value: unknown,
    types: string[] | undefined,
    syntax: ArgumentSyntax = this.values,
    depth = 0,
  ): string | undefined {
    if (types !== undefined && !types.some((type) => hasType(type, value))) return undefined;
    if (depth > MAX_LITERAL_DEPTH) return undefined; // nested deeper than a grammar should be
    if (typeof value === 'string') return stringLiteral(syntax, value);
    if (typeof value === 'number') return Number.isFinite(value) ? ebnfLiteral(String(value)) : undefined;
    if (typeof value === 'boolean')
      return ebnfLiteral(this.values === 'python' ? (value ? 'True' : 'False') : String(value));
    if (value === null) return ebnfLiteral(this.values === 'python' ? 'None' : 'null');
    if (Array.isArray(value)) {
      const items = value.map((item) => this.literal(item, undefined, this.values, depth + 1));
      if (items.some((item) => item === undefined)) return undefined;
      const separator =
        this.values === 'json' ? ` ${WS} "," ${WS} ` : this.values === 'python' ? ' "," " "? ' : ' "," ';
      return `("[" ${items.join(separator)} "]")`;
    }
    if (isRecord(value)) {
      const object = this.objectSyntax('value');
      const pairs: string[] = [];
      for (const [key, item] of Object.entries(value)) {
        const written = this.literal(item, undefined, this.values, depth + 1);
        if (written === undefined) return undefined;
        pairs.push(object.pair(object.key(key, ''), written));
      }
      return `(${object.open} ${pairs.join(` ${object.separator} `) || '""'} ${object.close})`;
    }
    return undefined;
  }

  // ---- lists --------------------------------------------------------------------------------

  private array(schema: Record<string, unknown>, path: string): string | undefined {
    const tuple = Array.isArray(schema.prefixItems)
      ? { prefix: schema.prefixItems as unknown[], rest: schema.items }
      : Array.isArray(schema.items)
        ? { prefix: schema.items as unknown[], rest: schema.additionalItems }
        : { prefix: [], rest: schema.items };
    let min = typeof schema.minItems === 'number' ? schema.minItems : 0;
    let max = typeof schema.maxItems === 'number' ? schema.maxItems : Infinity;
    if (max !== Infinity && max > COUNT_LIMIT) {
      this.loosen(path, `maxItems ${max}`);
      max = Infinity;
    }
    if (min > COUNT_LIMIT) {
      this.loosen(path, `minItems ${min}`);
      min = COUNT_LIMIT;
    }
    const prefix = this.inside(() => tuple.prefix.slice(0, max).map((item, i) => this.value(item, `${path}/${i}`)));
    // After a tuple's items, more only where the schema says which (xgrammar's strict mode).
    const restSchema = tuple.prefix.length && tuple.rest === undefined ? false : (tuple.rest ?? true);
    const rest = restSchema === false ? undefined : this.inside(() => this.value(restSchema, `${path}/items`));
    const sep = this.values === 'json' ? `${WS} "," ${WS}` : this.values === 'python' ? '"," " "?' : '","';
    // From the last element back: what may follow element i (1-based count written so far).
    const restCount = { min: Math.max(0, min - prefix.length), max: max - prefix.length };
    let tail =
      rest === undefined || restCount.max <= 0
        ? restCount.min > 0
          ? undefined
          : '""'
        : repeat(`${sep} ${rest}`, restCount.min, restCount.max);
    if (prefix.length === 0) {
      if (rest === undefined) return min > 0 ? undefined : this.bracketed('""');
      const body =
        min === 0
          ? max === 0
            ? '""'
            : `(${rest} ${repeat(`${sep} ${rest}`, 0, max - 1)})?`
          : `${rest} ${repeat(`${sep} ${rest}`, min - 1, max - 1)}`;
      return this.bracketed(body);
    }
    for (let i = prefix.length - 1; i >= 0; i--) {
      const item = prefix[i];
      if (item === undefined || tail === undefined) {
        if (i < min) return undefined; // a required element cannot be written
        tail = '""';
        continue;
      }
      const element = i === 0 ? `${item} ${tail}` : `${sep} ${item} ${tail}`;
      tail = this.rule(i >= min ? `(${element})?` : element);
    }
    return this.bracketed(tail!);
  }

  private bracketed(body: string): string {
    return this.rule(this.values === 'json' ? `"[" ${WS} ${body} ${WS} "]"` : `"[" ${body} "]"`);
  }

  // ---- objects ------------------------------------------------------------------------------

  private object(schema: Record<string, unknown>, path: string, form: 'root' | 'value'): string | undefined {
    return form === 'root'
      ? this.objectBody(schema, path, form)
      : this.inside(() => this.objectBody(schema, path, form));
  }

  private objectBody(schema: Record<string, unknown>, path: string, form: 'root' | 'value'): string | undefined {
    const syntax = this.objectSyntax(form);
    const properties = isRecord(schema.properties) ? (schema.properties as Record<string, unknown>) : {};
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
    const additional = schema.additionalProperties;
    const entries = Object.keys(properties).map((name) => ({ name, schema: properties[name] }));
    for (const name of required)
      if (!(name in properties)) entries.push({ name, schema: additional === undefined ? true : additional });
    if (this.syntax === 'gemma4') entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    if ('patternProperties' in schema && additional !== false) this.loosen(path, 'patternProperties');
    if (isRecord(schema.propertyNames) && Object.keys(schema.propertyNames).some((key) => key !== 'type'))
      this.loosen(path, 'propertyNames');

    // Like xgrammar's strict mode: properties not declared only where the schema asks for them (or
    // declares none at all, a free-form object). Never a model's inventions, never a repeated key.
    const open = additional === true || isRecord(additional) || (additional === undefined && !('properties' in schema));
    const others = open
      ? this.otherPair(
          entries.map((e) => e.name),
          additional,
          path,
          syntax,
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
      if (entries.length > 0 || (bound === 'min' && value > 1) || value > COUNT_LIMIT) this.loosen(path, key);
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
            : `(${others} ${repeat(`${syntax.separator} ${others}`, 0, maxOthers - 1)})?`
          : `${others} ${repeat(`${syntax.separator} ${others}`, minOthers - 1, maxOthers - 1)}`;
      after = repeat(`${syntax.separator} ${others}`, minOthers, maxOthers);
    }
    for (let i = entries.length - 1; i >= 0; i--) {
      const { name, schema: property } = entries[i];
      const value = this.propertyValue(property, `${path}/${name}`, form);
      const isRequired = required.has(name);
      if (value === undefined) {
        if (isRequired) return undefined;
        continue;
      }
      // Python keyword arguments: an optional one may be passed as None, its default in the signature the
      // prompt shows (formats/gemma-tool-code.ts); the reader leaves it out (readers/none-defaults.ts).
      const given = form === 'root' && this.syntax === 'python' && !isRequired ? `(${value} | "None")` : value;
      const pair = syntax.pair(syntax.key(name, path), given);
      const afterRule = this.rule(after);
      const firstWith = `${pair} ${afterRule}`;
      const afterWith = `${syntax.separator} ${pair} ${afterRule}`;
      first = this.rule(isRequired ? firstWith : `${firstWith} | ${first}`);
      after = this.rule(isRequired ? afterWith : `${afterWith} | ${afterRule}`);
    }
    return this.rule(`${syntax.open} ${first} ${syntax.close}`);
  }

  /** A parameter of Qwen3.5's XML whose schema is a string is bare text; every other value is JSON. */
  private propertyValue(schema: unknown, path: string, form: 'root' | 'value'): string | undefined {
    if (form !== 'root' || this.syntax !== 'xml') return this.value(schema, path);
    if (!isRecord(schema) || schema.type !== 'string') {
      this.parameterTop = true;
      try {
        return this.value(schema, path);
      } finally {
        this.parameterTop = false;
      }
    }
    if ('const' in schema) return typeof schema.const === 'string' ? stringLiteral('xml', schema.const) : undefined;
    if (Array.isArray(schema.enum))
      return this.choice(
        schema.enum.map((item) => (typeof item === 'string' ? stringLiteral('xml', item) : undefined)),
      );
    return this.string(schema, path, 'xml');
  }

  private otherPair(declared: string[], schema: unknown, path: string, syntax: ObjectSyntax): string | undefined {
    const key = syntax.otherKey(declared);
    const value = this.value(schema ?? true, `${path}/*`);
    if (key === undefined || value === undefined) return undefined;
    return this.rule(syntax.pair(key, value));
  }

  private objectSyntax(form: 'root' | 'value'): ObjectSyntax {
    if (form === 'root' && this.syntax === 'python')
      return {
        open: '""',
        close: '""',
        separator: '"," " "?',
        pair: (key, value) => `${key} "=" ${value}`,
        key: (name, path) => {
          if (!IDENTIFIER.test(name))
            throw new GrammarUnsupported(`${path}/${name} is not a name Python can pass as a keyword argument`);
          return ebnfLiteral(name);
        },
        otherKey: (declared) => keysExcept(declared, IDENTIFIER_START, IDENTIFIER_REST, false, this.ruleOf),
      };
    if (form === 'root' && this.syntax === 'xml')
      return {
        open: '""',
        close: '""',
        separator: '""',
        pair: (key, value) => `${WS} ${key} ${WS} ${value} ${WS} "</parameter>"`,
        key: (name, path) => {
          if (!/^[^"'>\s]+$/.test(name))
            throw new GrammarUnsupported(`${path}/${name} cannot be written as <parameter=${name}>`);
          return ebnfLiteral(`<parameter=${name}>`);
        },
        otherKey: (declared) => {
          const name = keysExcept(declared, IDENTIFIER_START, IDENTIFIER_REST, false, this.ruleOf);
          return name && `"<parameter=" ${name} ">"`;
        },
      };
    switch (this.values) {
      case 'json':
        return {
          open: `"{" ${WS}`,
          close: `${WS} "}"`,
          separator: `${WS} "," ${WS}`,
          pair: (key, value) => `${key} ${WS} ":" ${WS} ${value}`,
          key: (name) => ebnfLiteral(JSON.stringify(name)),
          otherKey: (declared) => {
            const name = keysExcept(declared, JSON_KEY_CHAR, JSON_KEY_CHAR, true, this.ruleOf);
            return name && `"\\"" ${name} "\\""`;
          },
        };
      case 'python':
        return {
          open: '"{"',
          close: '"}"',
          separator: '"," " "?',
          pair: (key, value) => `${key} ":" " "? ${value}`,
          key: (name) => ebnfLiteral(JSON.stringify(name)),
          otherKey: (declared) => {
            const name = keysExcept(declared, JSON_KEY_CHAR, JSON_KEY_CHAR, true, this.ruleOf);
            return name && `"\\"" ${name} "\\""`;
          },
        };
      case 'gemma4':
        return {
          open: '"{"',
          close: '"}"',
          separator: '","',
          pair: (key, value) => `${key} ":" ${value}`,
          key: (name, path) => {
            if (IDENTIFIER.test(name)) return ebnfLiteral(name);
            const quoted = stringLiteral('gemma4', name);
            if (quoted === undefined)
              throw new GrammarUnsupported(`${path}/${name} cannot be written as a Gemma 4 key`);
            return quoted;
          },
          otherKey: (declared) => keysExcept(declared, IDENTIFIER_START, IDENTIFIER_REST, false, this.ruleOf),
        };
    }
  }

  // ---- any value ----------------------------------------------------------------------------

  private any(): string {
    const syntax = this.values;
    const name = `any_${syntax}${this.parameterTop ? '_parameter' : ''}`;
    if (this.byBody.has(`#${name}`)) return name;
    const string = this.plainString(syntax);
    // Strings inside its lists and objects are followed by what follows them there.
    const inner = this.parameterTop ? this.inside(() => this.any()) : name;
    const number = this.rule(numberGrammar({ integer: false })!);
    const words = syntax === 'python' ? '"True" | "False" | "None"' : '"true" | "false" | "null"';
    let list: string;
    let dict: string;
    const key = this.inside(() => this.plainString(syntax));
    if (syntax === 'json') {
      list = `"[" ${WS} (${inner} (${WS} "," ${WS} ${inner})*)? ${WS} "]"`;
      dict = `"{" ${WS} (${key} ${WS} ":" ${WS} ${inner} (${WS} "," ${WS} ${key} ${WS} ":" ${WS} ${inner})*)? ${WS} "}"`;
    } else if (syntax === 'python') {
      list = `"[" (${inner} ("," " "? ${inner})*)? "]"`;
      dict = `"{" (${key} ":" " "? ${inner} ("," " "? ${key} ":" " "? ${inner})*)? "}"`;
    } else {
      const bareOrQuoted = `([A-Za-z_] [A-Za-z0-9_]* | ${key})`;
      list = `"[" (${inner} ("," ${inner})*)? "]"`;
      dict = `"{" (${bareOrQuoted} ":" ${inner} ("," ${bareOrQuoted} ":" ${inner})*)? "}"`;
    }
    return this.shared(name, `${string} | ${number} | ${words} | ${list} | ${dict}`);
  }
}

/** What may follow a string inside a value of each syntax (its closing quote is the string's own). */
const FOLLOWS: Record<ArgumentSyntax, string> = {
  json: '[ \\n\\t]* [,}\\]:]',
  python: '[,)\\]}:]',
  gemma4: '[,}\\]:]',
  xml: '[ \\n\\t]* "</parameter>"',
};
const PARAMETER_END = FOLLOWS.xml;

const ANNOTATION = new Set([...ANNOTATIONS, '$defs', 'definitions']);

/** `item` repeated min to max times (max Infinity: no upper bound). */
function repeat(item: string, min: number, max: number): string {
  if (max === 0) return '""';
  if (max === Infinity) return min === 0 ? `(${item})*` : min === 1 ? `(${item})+` : `(${item}){${min},}`;
  if (min === 0 && max === 1) return `(${item})?`;
  if (min === max) return min === 1 ? `(${item})` : `(${item}){${min}}`;
  return `(${item}){${min},${max}}`;
}

/** The declared types (nullable adds null), or the type its keywords imply, or undefined for any type. */
function typesOf(schema: Record<string, unknown>): string[] | undefined {
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

function numberBounds(schema: Record<string, unknown>) {
  let minimum = typeof schema.minimum === 'number' ? schema.minimum : undefined;
  let maximum = typeof schema.maximum === 'number' ? schema.maximum : undefined;
  let exclusiveMinimum = schema.exclusiveMinimum === true;
  let exclusiveMaximum = schema.exclusiveMaximum === true;
  if (typeof schema.exclusiveMinimum === 'number' && (minimum === undefined || schema.exclusiveMinimum >= minimum))
    [minimum, exclusiveMinimum] = [schema.exclusiveMinimum, true];
  if (typeof schema.exclusiveMaximum === 'number' && (maximum === undefined || schema.exclusiveMaximum <= maximum))
    [maximum, exclusiveMaximum] = [schema.exclusiveMaximum, true];
  return { minimum, maximum, exclusiveMinimum, exclusiveMaximum };
}

/**
 * Whether no value can pass two options of a oneOf: options of different
 * types (integer and number overlap), or objects that require one property
 * with a different const in each (a discriminated union).
 */
function exclusive(options: unknown[]): boolean {
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

/**
 * Names that are none of `declared`, over the given characters, as EBNF: a
 * trie of the declared names where every step off it, and every end that is
 * not a declared name, is allowed.
 */
function keysExcept(
  declared: readonly string[],
  first: CharSet,
  rest: CharSet,
  allowEmpty: boolean,
  rule: (body: string) => string,
): string | undefined {
  interface Node {
    children: Map<number, Node>;
    end: boolean;
  }
  const root: Node = { children: new Map(), end: false };
  for (const name of declared) {
    let node = root;
    for (const ch of name) {
      const codePoint = ch.codePointAt(0)!;
      let child = node.children.get(codePoint);
      if (!child) node.children.set(codePoint, (child = { children: new Map(), end: false }));
      node = child;
    }
    node.end = true;
  }
  const tail = rule(`${ebnfClass(rest)}*`);
  const visit = (node: Node, depth: number): string | undefined => {
    const alphabet = depth === 0 ? first : rest;
    const options: string[] = [];
    if (!node.end && (depth > 0 || allowEmpty)) options.push('""');
    const stepsOff = subtract(alphabet, charSet(...[...node.children.keys()].map((cp): [number, number] => [cp, cp])));
    if (!isEmpty(stepsOff)) options.push(`${ebnfClass(stepsOff)} ${tail}`);
    for (const [codePoint, child] of node.children) {
      if (!hasChar(alphabet, codePoint)) continue;
      const after = visit(child, depth + 1);
      if (after !== undefined) options.push(`${ebnfLiteral(String.fromCodePoint(codePoint))} ${after}`);
    }
    // A rule per node: nesting one expression per character of a long name would nest the grammar too deep.
    return options.length ? rule(options.join(' | ')) : undefined;
  };
  return visit(root, 0);
}
