/** Any value at all, in the syntax of the values: a schema that constrains nothing, or an unknown property. */
import { ebnfLiteral } from '../char-set';
import { numberGrammar } from '../number-range';
import type { GrammarBuild } from './grammar-build';
import { objectForm } from './object-forms';
import { VALUE_FORMS } from './value-syntax';

export function anyGrammar(build: GrammarBuild): string {
  const syntax = build.values;
  const name = `any_${syntax}${build.parameterTop ? '_parameter' : ''}`;
  if (build.hasShared(name)) return name;
  const string = build.plainString(syntax);
  // Strings inside its lists and objects are followed by what follows them there.
  const inner = build.parameterTop ? build.inside(() => anyGrammar(build)) : name;
  const number = build.rule(numberGrammar({ integer: false })!);
  const forms = VALUE_FORMS[syntax];
  const words = [forms.words.true, forms.words.false, forms.words.null].map(ebnfLiteral).join(' | ');
  const key = build.inside(() => build.plainString(syntax));
  const list = forms.list(`(${inner} (${forms.separator} ${inner})*)?`);
  // Gemma 4 writes a key bare when it is a name.
  const anyKey = syntax === 'gemma4' ? `([A-Za-z_] [A-Za-z0-9_]* | ${key})` : key;
  const object = objectForm(build, 'value');
  const pair = object.pair(anyKey, inner);
  const dict = `${object.open} (${pair} (${object.separator} ${pair})*)? ${object.close}`;
  return build.shared(name, `${string} | ${number} | ${words} | ${list} | ${dict}`);
}
