/** A number's or an integer's grammar within its bounds (exactly: number-range.ts). */
import { numberGrammar as rangeGrammar } from '../number-range';
import type { GrammarBuild } from './grammar-build';

export function numberGrammar(
  build: GrammarBuild,
  schema: Record<string, unknown>,
  integer: boolean,
): string | undefined {
  const grammar = rangeGrammar({ integer, ...numberBounds(schema) });
  return grammar === undefined ? undefined : build.rule(grammar);
}

/** The bounds, draft-04's boolean exclusives and 2020-12's numeric ones alike, the tighter one where both are given. */
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
