/**
 * One grammar builder per JSON type, as the validator has one check per type
 * (tools/json-schema-validate.ts): the builder of a schema's values picks
 * them by the types the schema declares or implies (schema-types.ts).
 */
import { ebnfLiteral } from '../char-set';
import type { TypeGrammar } from './grammar-build';
import { arrayGrammar } from './array-grammar';
import { numberGrammar } from './number-grammar';
import { objectGrammar } from './object-grammar';
import { stringGrammar } from './string-grammar';
import { VALUE_FORMS } from './value-syntax';

export const TYPE_GRAMMARS: Readonly<Record<string, TypeGrammar>> = {
  string: (build, schema, path) => stringGrammar(build, schema, path, build.values),
  integer: (build, schema) => numberGrammar(build, schema, true),
  number: (build, schema) => numberGrammar(build, schema, false),
  boolean: (build) => VALUE_FORMS[build.values].boolean,
  null: (build) => ebnfLiteral(VALUE_FORMS[build.values].words.null),
  array: arrayGrammar,
  object: (build, schema, path) => objectGrammar(build, schema, path, 'value'),
};
