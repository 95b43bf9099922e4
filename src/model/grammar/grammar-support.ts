/**
 * What the grammar makes of a tool's argument schema in one syntax: its EBNF
 * (ebnf-arguments.ts), the constraints it leaves to the validator, or why no
 * grammar can hold the schema (a lookaround pattern, an unknown type, a
 * reference to nowhere): then the tool is constrained by its name only and
 * its arguments are validated after generation; the step says so in a notice.
 *
 * Kept per schema object and syntax: a run plans every step with the same
 * declarations, and building a grammar for seventy MCP tools is not free.
 */
import type { JsonSchema } from '../../tools/declaration';
import { argumentsGrammar, GrammarUnsupported, type ArgumentSyntax } from './ebnf-arguments';

export interface ArgumentsSupport {
  /** EBNF with the arguments at its root; absent when unsupported. */
  grammar?: string;
  /** Why no grammar can hold the schema. */
  unsupported?: string;
  /** Constraints the grammar leaves to the validator, each with where it is. */
  loosened: readonly string[];
}

const cache = new WeakMap<object, Map<ArgumentSyntax, ArgumentsSupport>>();

export function argumentsSupport(schema: JsonSchema, syntax: ArgumentSyntax): ArgumentsSupport {
  let bySyntax = cache.get(schema);
  if (!bySyntax) cache.set(schema, (bySyntax = new Map()));
  let support = bySyntax.get(syntax);
  if (!support) {
    support = build(schema, syntax);
    bySyntax.set(syntax, support);
  }
  return support;
}

function build(schema: JsonSchema, syntax: ArgumentSyntax): ArgumentsSupport {
  try {
    const { grammar, loosened } = argumentsGrammar(schema, syntax);
    return { grammar, loosened };
  } catch (error) {
    if (error instanceof GrammarUnsupported) return { unsupported: error.message, loosened: [] };
    throw error;
  }
}
