/** A const's or an enum's value, written as the syntax writes it. */
import { hasType } from '../../../tools/json-schema-types';
import { isRecord } from '../../readers/read-calls';
import { ebnfLiteral } from '../char-set';
import { stringLiteral } from '../string-syntax';
import type { GrammarBuild } from './grammar-build';
import { MAX_LITERAL_DEPTH } from './grammar-limits';
import { objectForm } from './object-forms';
import { VALUE_FORMS } from './value-syntax';

/** `value` as written, or undefined when the declared `types` rule it out or the syntax cannot write it. */
export function literalGrammar(
  build: GrammarBuild,
  value: unknown,
  types: string[] | undefined,
  depth = 0,
): string | undefined {
  if (types !== undefined && !types.some((type) => hasType(type, value))) return undefined;
  if (depth > MAX_LITERAL_DEPTH) return undefined; // nested deeper than a grammar should be
  const forms = VALUE_FORMS[build.values];
  if (typeof value === 'string') return stringLiteral(build.values, value);
  if (typeof value === 'number') return Number.isFinite(value) ? ebnfLiteral(String(value)) : undefined;
  if (typeof value === 'boolean') return ebnfLiteral(value ? forms.words.true : forms.words.false);
  if (value === null) return ebnfLiteral(forms.words.null);
  if (Array.isArray(value)) {
    const items = value.map((item) => literalGrammar(build, item, undefined, depth + 1));
    if (items.some((item) => item === undefined)) return undefined;
    return `("[" ${items.join(` ${forms.separator} `)} "]")`;
  }
  if (isRecord(value)) {
    const object = objectForm(build, 'value');
    const pairs: string[] = [];
    for (const [key, item] of Object.entries(value)) {
      const written = literalGrammar(build, item, undefined, depth + 1);
      if (written === undefined) return undefined;
      pairs.push(object.pair(object.key(key, ''), written));
    }
    return `(${object.open} ${pairs.join(` ${object.separator} `) || '""'} ${object.close})`;
  }
  return undefined;
}
