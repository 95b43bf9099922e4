/**
 * What the grammar of a call's arguments is built with, as each JSON type's
 * builder sees it (string-grammar.ts, array-grammar.ts, object-grammar.ts…):
 * the rules written so far, what is left to the validator, and the way back
 * to any value. In types only, so that the builders and the one that
 * dispatches to them (arguments-builder.ts) do not import each other.
 */
import type { ArgumentSyntax } from '../string-syntax';

/** How values are written inside the arguments: Qwen3.5's parameters hold JSON. */
export type ValueSyntax = Exclude<ArgumentSyntax, 'xml'>;

export interface GrammarBuild {
  /** How the arguments are written. */
  readonly syntax: ArgumentSyntax;
  /** How the values inside them are written. */
  readonly values: ValueSyntax;
  /** Building the whole value of a Qwen3.5 parameter (JSON that `</parameter>` follows), not a part of one. */
  readonly parameterTop: boolean;
  /** A named rule for `body`, shared by every use of the same body. */
  rule(body: string): string;
  /** The rule `name` with `body`, written once. */
  shared(name: string, body: string): string;
  /** Whether the rule `name` of `shared` is written. */
  hasShared(name: string): boolean;
  /** Says that the grammar leaves `what`, at `path` in the schema, to the validator. */
  loosen(path: string, what: string): void;
  /** Any value `schema` allows, or undefined when none can be written. */
  value(schema: unknown, path: string): string | undefined;
  /** Any string of `syntax` where it stands now, as a shared rule. */
  plainString(syntax: ArgumentSyntax): string;
  /** Builds the values inside a list or an object: none of them is a parameter's whole value. */
  inside<T>(build: () => T): T;
  /** Builds the whole value of a Qwen3.5 parameter. */
  atParameterTop<T>(build: () => T): T;
  /** One of `options` (those that can be written), or undefined when none can. */
  choice(options: (string | undefined)[]): string | undefined;
}

/** One JSON type's grammar for `schema`, or undefined when no value of it can be written. */
export type TypeGrammar = (build: GrammarBuild, schema: Record<string, unknown>, path: string) => string | undefined;
