/**
 * EBNF (xgrammar's dialect) for arguments written in a syntax other than
 * JSON, typed by the tool's JSON Schema: Python keyword arguments for Gemma's
 * ```tool_code, and Gemma 4's `{key:<|"|>text<|"|>,n:1}` notation. Properties
 * come in the schema's order (Gemma 4's template sorts them); required ones
 * must appear, optional ones may.
 */
import type { JsonSchema } from '../../tools/declaration';
import { isRecord } from './read-calls';

export type Dialect = 'python' | 'gemma4';

interface Syntax {
  string: string;
  true: string;
  false: string;
  null: string;
  keyValue: string;
  separator: string;
  quote(text: string): string;
}

const SYNTAX: Record<Dialect, Syntax> = {
  python: {
    string: `("\\"" ([^"\\\\\\n] | "\\\\" [^\\n])* "\\"") | ("'" ([^'\\\\\\n] | "\\\\" [^\\n])* "'")`,
    true: '"True"',
    false: '"False"',
    null: '"None"',
    keyValue: '"="',
    separator: '"," " "?',
    quote: (text) => JSON.stringify(JSON.stringify(text)),
  },
  gemma4: {
    string: `"<|\\"|>" ([^<] | "<" [^|])* "<|\\"|>"`,
    true: '"true"',
    false: '"false"',
    null: '"null"',
    keyValue: '":"',
    separator: '","',
    quote: (text) => JSON.stringify(`<|"|>${text}<|"|>`),
  },
};

/**
 * The grammar of one call's arguments. `root` is the keyword list (python) or
 * the braced object (gemma4); `free` leaves every argument's value untyped.
 */
export function argumentsGrammar(schema: JsonSchema, dialect: Dialect, free = false): string {
  const builder = new GrammarBuilder(SYNTAX[dialect], dialect);
  const body = free ? builder.anyProperties() : builder.properties(schema);
  const root = dialect === 'python' ? body : `"{" ${body} "}"`;
  return [`root ::= ${root}`, ...builder.rules].join('\n');
}

class GrammarBuilder {
  readonly rules: string[] = [];
  private count = 0;
  private anyRule?: string;

  constructor(
    private readonly syntax: Syntax,
    private readonly dialect: Dialect,
  ) {}

  private rule(body: string): string {
    const name = `r${this.count++}`;
    this.rules.push(`${name} ::= ${body}`);
    return name;
  }

  /** key=value pairs (or key:value) in schema order; the required ones mandatory. */
  properties(schema: JsonSchema): string {
    const props = isRecord(schema.properties) ? Object.entries(schema.properties as Record<string, JsonSchema>) : [];
    if (props.length === 0)
      return isRecord(schema) && schema.additionalProperties === false ? '""' : this.anyProperties();
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
    const ordered = this.dialect === 'gemma4' ? [...props].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)) : props;
    // first_i: nothing written yet; after_i: something written (a separator comes first).
    let first = '""';
    let after = '""';
    for (let i = ordered.length - 1; i >= 0; i--) {
      const [key, value] = ordered[i];
      const pair = `${JSON.stringify(key)} ${this.syntax.keyValue} ${this.value(value)}`;
      const afterRule = this.rule(after);
      const firstWith = `${pair} ${afterRule}`;
      const afterWith = `${this.syntax.separator} ${pair} ${afterRule}`;
      if (required.has(key)) {
        first = this.rule(firstWith);
        after = this.rule(afterWith);
      } else {
        first = this.rule(`(${firstWith}) | ${first}`);
        after = this.rule(`(${afterWith}) | ${afterRule}`);
      }
    }
    return first;
  }

  /** Any keyword arguments, each any value. */
  anyProperties(): string {
    const pair = this.rule(`[A-Za-z_] [A-Za-z0-9_]* ${this.syntax.keyValue} ${this.any()}`);
    return `(${pair} (${this.syntax.separator} ${pair})*)?`;
  }

  value(schema: unknown): string {
    if (!isRecord(schema)) return this.any();
    if ('const' in schema) return this.literal(schema.const);
    if (Array.isArray(schema.enum)) return `(${schema.enum.map((item) => this.literal(item)).join(' | ')})`;
    for (const key of ['anyOf', 'oneOf'] as const)
      if (Array.isArray(schema[key]))
        return `(${(schema[key] as unknown[]).map((option) => this.value(option)).join(' | ')})`;
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    const alternatives = types.map((type) => this.typed(type, schema)).filter(Boolean);
    return alternatives.length ? `(${alternatives.join(' | ')})` : this.any();
  }

  private typed(type: unknown, schema: JsonSchema): string {
    switch (type) {
      case 'string':
        return this.rule(this.syntax.string);
      case 'integer':
        return '("-"? [0-9]+)';
      case 'number':
        return '("-"? [0-9]+ ("." [0-9]+)? ([eE] [+-]? [0-9]+)?)';
      case 'boolean':
        return `(${this.syntax.true} | ${this.syntax.false})`;
      case 'null':
        return this.syntax.null;
      case 'array': {
        const item = this.value(schema.items);
        return this.rule(`"[" (${item} ("," " "? ${item})*)? "]"`);
      }
      case 'object':
        if (this.dialect === 'gemma4' && isRecord(schema.properties))
          return this.rule(`"{" ${this.properties(schema)} "}"`);
        return this.dict();
      default:
        return '';
    }
  }

  private literal(value: unknown): string {
    if (typeof value === 'string') return this.syntax.quote(value);
    if (value === true) return this.syntax.true;
    if (value === false) return this.syntax.false;
    if (value === null) return this.syntax.null;
    return JSON.stringify(String(JSON.stringify(value)));
  }

  /** A dict (python: quoted keys; gemma4: bare or quoted keys) of any values. */
  private dict(): string {
    const key =
      this.dialect === 'gemma4'
        ? `([A-Za-z_] [A-Za-z0-9_]* | ${this.rule(this.syntax.string)})`
        : this.rule(this.syntax.string);
    const sep = this.dialect === 'gemma4' ? '":"' : '":" " "?';
    const any = this.any();
    const pair = this.rule(`${key} ${sep} ${any}`);
    return this.rule(`"{" (${pair} ("," " "? ${pair})*)? "}"`);
  }

  /** Any value of the dialect. */
  private any(): string {
    if (this.anyRule) return this.anyRule;
    const name = `r${this.count++}`;
    this.anyRule = name;
    const string = this.rule(this.syntax.string);
    const key = this.dialect === 'gemma4' ? `([A-Za-z_] [A-Za-z0-9_]* | ${string})` : string;
    const list = `"[" (${name} ("," " "? ${name})*)? "]"`;
    const dict = `"{" (${key} ":" " "? ${name} ("," " "? ${key} ":" " "? ${name})*)? "}"`;
    const number = '("-"? [0-9]+ ("." [0-9]+)?)';
    this.rules.push(
      `${name} ::= ${string} | ${number} | ${this.syntax.true} | ${this.syntax.false} | ${this.syntax.null} | ${list} | ${dict}`,
    );
    return name;
  }
}
