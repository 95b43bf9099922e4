/**
 * How each syntax writes an object: the arguments themselves (Python's
 * keyword arguments, Qwen3.5's `<parameter=…>` elements) and the objects
 * among their values (JSON, a Python dict, Gemma 4's `{key:value}`).
 */
import { ANY_CHAR, charSet, ebnfLiteral, subtract } from '../char-set';
import { stringLiteral } from '../string-syntax';
import { GrammarUnsupported } from './grammar-unsupported';
import type { GrammarBuild } from './grammar-build';
import { keysExcept } from './keys-except';
import { VALUE_FORMS, WS } from './value-syntax';

/** The arguments as a whole, or an object among their values. */
export type ObjectPlace = 'root' | 'value';

export interface ObjectForm {
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

export function objectForm(build: GrammarBuild, place: ObjectPlace): ObjectForm {
  const rule = (body: string) => build.rule(body);
  /** A quoted name that is none of `declared`. */
  const quotedOther = (declared: readonly string[]) => {
    const name = keysExcept(declared, JSON_KEY_CHAR, JSON_KEY_CHAR, true, rule);
    return name && `"\\"" ${name} "\\""`;
  };
  const identifierOther = (declared: readonly string[]) =>
    keysExcept(declared, IDENTIFIER_START, IDENTIFIER_REST, false, rule);
  if (place === 'root' && build.syntax === 'python')
    return {
      open: '""',
      close: '""',
      separator: VALUE_FORMS.python.separator,
      pair: (key, value) => `${key} "=" ${value}`,
      key: (name, path) => {
        if (!IDENTIFIER.test(name))
          throw new GrammarUnsupported(`${path}/${name} is not a name Python can pass as a keyword argument`);
        return ebnfLiteral(name);
      },
      otherKey: identifierOther,
    };
  if (place === 'root' && build.syntax === 'xml')
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
        const name = identifierOther(declared);
        return name && `"<parameter=" ${name} ">"`;
      },
    };
  switch (build.values) {
    case 'json':
      return {
        open: `"{" ${WS}`,
        close: `${WS} "}"`,
        separator: VALUE_FORMS.json.separator,
        pair: (key, value) => `${key} ${WS} ":" ${WS} ${value}`,
        key: (name) => ebnfLiteral(JSON.stringify(name)),
        otherKey: quotedOther,
      };
    case 'python':
      return {
        open: '"{"',
        close: '"}"',
        separator: VALUE_FORMS.python.separator,
        pair: (key, value) => `${key} ":" " "? ${value}`,
        key: (name) => ebnfLiteral(JSON.stringify(name)),
        otherKey: quotedOther,
      };
    case 'gemma4':
      return {
        open: '"{"',
        close: '"}"',
        separator: VALUE_FORMS.gemma4.separator,
        pair: (key, value) => `${key} ":" ${value}`,
        key: (name, path) => {
          if (IDENTIFIER.test(name)) return ebnfLiteral(name);
          const quoted = stringLiteral('gemma4', name);
          if (quoted === undefined) throw new GrammarUnsupported(`${path}/${name} cannot be written as a Gemma 4 key`);
          return quoted;
        },
        otherKey: identifierOther,
      };
  }
}
