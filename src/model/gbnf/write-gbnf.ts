/**
 * A grammar tree in llama.cpp's GBNF. What differs from xgrammar's EBNF is
 * spelling only: rule names are letters, digits and `-` (no `_`), and inside
 * strings and classes only printable ASCII stands for itself; everything else
 * (and every class character that is not a letter or digit) is a \x, \u or
 * \U escape, which llama.cpp's grammar parser reads in both.
 */
import { complement, type CharSet } from '../grammar/char-set';
import type { GrammarNode, GrammarRules } from './grammar-tree';

/** A GBNF rule name for any name: `_` and other characters become `-`, and a number keeps names apart. */
export function gbnfName(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9-]+/g, '-').replace(/^-+|-+$/g, '');
  return cleaned || 'rule';
}

export function writeGbnf(rules: GrammarRules): string {
  return [...rules].map(([name, body]) => `${name} ::= ${node(body, 0)}`).join('\n');
}

/** `level`: 0 in a rule's alternatives, 1 in a sequence, 2 under a repetition (what needs parentheses). */
function node(tree: GrammarNode, level: number): string {
  switch (tree.kind) {
    case 'literal':
      return gbnfLiteral(tree.text);
    case 'chars':
      return gbnfClass(tree.set);
    case 'ref':
      return tree.name;
    case 'sequence': {
      const text = tree.items.map((item) => node(item, 1)).join(' ');
      return level >= 2 ? `(${text})` : text;
    }
    case 'choice': {
      const text = tree.options.map((option) => node(option, 0)).join(' | ');
      return level >= 1 ? `(${text})` : text;
    }
    case 'repeat': {
      const item = node(tree.item, 2);
      const { min, max } = tree;
      if (max === Infinity) return min === 0 ? `${item}*` : min === 1 ? `${item}+` : `${item}{${min},}`;
      if (min === 0 && max === 1) return `${item}?`;
      return min === max ? `${item}{${min}}` : `${item}{${min},${max}}`;
    }
  }
}

function gbnfLiteral(text: string): string {
  let out = '"';
  for (const ch of text) {
    const codePoint = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (codePoint >= 0x20 && codePoint <= 0x7e) out += ch;
    else out += escape(codePoint);
  }
  return `${out}"`;
}

/** A class, negated when that is shorter; an empty one (nothing matches) cannot be written. */
function gbnfClass(set: CharSet): string {
  if (set.length === 0) throw new Error('an empty character class has no GBNF spelling');
  const inverse = complement(set);
  const negated = inverse.length > 0 && inverse.length < set.length;
  const ranges = negated ? inverse : set;
  return `[${negated ? '^' : ''}${ranges.map(([lo, hi]) => (lo === hi ? classChar(lo) : `${classChar(lo)}-${classChar(hi)}`)).join('')}]`;
}

function classChar(codePoint: number): string {
  return /[A-Za-z0-9]/.test(String.fromCodePoint(codePoint)) ? String.fromCodePoint(codePoint) : escape(codePoint);
}

function escape(codePoint: number): string {
  if (codePoint < 0x80) return `\\x${codePoint.toString(16).padStart(2, '0')}`;
  if (codePoint <= 0xffff) return `\\u${codePoint.toString(16).padStart(4, '0')}`;
  return `\\U${codePoint.toString(16).padStart(8, '0')}`;
}
