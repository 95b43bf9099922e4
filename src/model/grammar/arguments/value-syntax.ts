/**
 * How each syntax writes the values that are not strings or objects inside a
 * call's arguments: JSON, Python (Gemma's ```tool_code) and Gemma 4's
 * `{key:<|"|>text<|"|>}`. Qwen3.5's XML parameters hold JSON values.
 * (Strings are string-syntax.ts's; objects are object-forms.ts's.)
 */
import type { ValueSyntax } from './grammar-build';

/** JSON's whitespace between tokens, written where it stands (a rule of its own costs mask time at every step). */
export const WS = '[ \\n\\t]*';

export interface ValueForms {
  /** true and false, as one alternative. */
  boolean: string;
  /** Each of the words true, false and null as written. */
  words: { true: string; false: string; null: string };
  /** Between two items of a list (or two pairs of an object). */
  separator: string;
  /** A list around `body`. */
  list(body: string): string;
}

export const VALUE_FORMS: Record<ValueSyntax, ValueForms> = {
  json: {
    boolean: '("true" | "false")',
    words: { true: 'true', false: 'false', null: 'null' },
    separator: `${WS} "," ${WS}`,
    list: (body) => `"[" ${WS} ${body} ${WS} "]"`,
  },
  python: {
    boolean: '("True" | "False")',
    words: { true: 'True', false: 'False', null: 'None' },
    separator: '"," " "?',
    list: (body) => `"[" ${body} "]"`,
  },
  gemma4: {
    boolean: '("true" | "false")',
    words: { true: 'true', false: 'false', null: 'null' },
    separator: '","',
    list: (body) => `"[" ${body} "]"`,
  },
};
