/**
 * The grammar (xgrammar's EBNF) of a call's arguments, typed by the tool's
 * JSON Schema, in the syntax its format writes them: JSON, Qwen3.5's XML
 * parameters, Python keyword arguments (Gemma's ```tool_code) or Gemma 4's
 * `{key:<|"|>text<|"|>}`. Built by arguments/ (one builder per JSON type,
 * reading the validator's own index of references and table of formats).
 *
 * The promise: every call the grammar allows passes the validator
 * (tools/validate-args.ts), and every valid call has a text the grammar
 * allows, except where the grammar says otherwise. Types, enum and const,
 * required properties, additionalProperties, number bounds (exactly:
 * number-range.ts), patterns and the validator's formats (regex-pattern.ts),
 * string lengths up to LENGTH_LIMIT, list lengths up to COUNT_LIMIT, anyOf,
 * oneOf, allOf and $ref (recursion included, by JSON pointer, `$id` or
 * `$anchor`) are held. What it does not hold is listed in `loosened`, and the
 * validator answers it after generation: longer length bounds (each bounded
 * character is a grammar state, and every state costs a pass over the
 * vocabulary when web-llm compiles the step's grammar: maxLength 60 costs
 * seconds), multipleOf, uniqueItems, not, if/then/else, dependencies,
 * contains, property-name rules, and the overlap of oneOf options. What no
 * grammar can hold (lookaround in a pattern, an unknown type, a reference to
 * nowhere, a `$dynamicRef`) is refused (GrammarUnsupported), and the plan
 * constrains that tool by its name only.
 */
import type { JsonSchema } from '../../tools/declaration';
import { ebnfLiteral } from './char-set';
import type { ArgumentSyntax } from './string-syntax';
import { ArgumentsBuilder } from './arguments/arguments-builder';
import { WS } from './arguments/value-syntax';

export type { ArgumentSyntax };
export { GrammarUnsupported } from './arguments/grammar-unsupported';

export interface ArgumentsGrammar {
  /** EBNF whose `root` is the arguments. */
  grammar: string;
  /** What the grammar leaves to the validator, each with where it is in the schema. */
  loosened: string[];
}

/** The arguments of one tool: the root of the grammar. */
export function argumentsGrammar(schema: JsonSchema, syntax: ArgumentSyntax): ArgumentsGrammar {
  const builder = new ArgumentsBuilder(syntax);
  const root = builder.arguments(schema);
  return { grammar: builder.render(root), loosened: builder.loosened };
}

/** `[{"name": …, "arguments": {…}}, …]`: one or more calls to `tools`, in JSON (SmolLM2, Phi-4-mini). */
export function callListGrammar(tools: readonly { name: string; schema: JsonSchema }[]): ArgumentsGrammar {
  const builder = new ArgumentsBuilder('json');
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
  const builder = new ArgumentsBuilder(syntax);
  const calls = tools.map(({ head, schema, tail }) =>
    [ebnfLiteral(head), schema && builder.arguments(schema), tail && ebnfLiteral(tail)].filter(Boolean).join(' '),
  );
  return builder.render(calls.join(' | '));
}

/** Any arguments at all (a relaxed tool in the Python or Gemma 4 syntax): validated after generation. */
export function freeArgumentsGrammar(syntax: 'python' | 'gemma4'): string {
  const builder = new ArgumentsBuilder(syntax);
  return builder.render(builder.arguments(FREE_OBJECT));
}

/** Any arguments at all. */
export const FREE_OBJECT = { type: 'object', additionalProperties: true };
