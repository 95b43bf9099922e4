/**
 * A grammar as a tree, between xgrammar's EBNF (what our formats write) and
 * llama.cpp's GBNF (what wllama decodes under). Both dialects are BNF with
 * strings, character classes, groups and repetition; the tree holds what they
 * share, with characters as code points, so that each side only reads or
 * writes its own spelling.
 */
import type { CharSet } from '../grammar/char-set';

export type GrammarNode =
  | { kind: 'literal'; text: string }
  | { kind: 'chars'; set: CharSet }
  | { kind: 'ref'; name: string }
  | { kind: 'sequence'; items: GrammarNode[] }
  | { kind: 'choice'; options: GrammarNode[] }
  /** `max` Infinity: no upper bound. */
  | { kind: 'repeat'; item: GrammarNode; min: number; max: number };

/** Rules by name, in the order they were written; `root` is where matching starts. */
export type GrammarRules = Map<string, GrammarNode>;

const EMPTY: GrammarNode = { kind: 'literal', text: '' };

export function literal(text: string): GrammarNode {
  return { kind: 'literal', text };
}

export function ref(name: string): GrammarNode {
  return { kind: 'ref', name };
}

export function sequence(...items: GrammarNode[]): GrammarNode {
  const flat = items.flatMap((item) =>
    item.kind === 'sequence' ? item.items : item.kind === 'literal' && item.text === '' ? [] : [item],
  );
  return flat.length === 0 ? EMPTY : flat.length === 1 ? flat[0] : { kind: 'sequence', items: flat };
}

export function choice(...options: GrammarNode[]): GrammarNode {
  const flat = options.flatMap((option) => (option.kind === 'choice' ? option.options : [option]));
  return flat.length === 1 ? flat[0] : { kind: 'choice', options: flat };
}

export function renamed(node: GrammarNode, rename: (name: string) => string): GrammarNode {
  switch (node.kind) {
    case 'ref':
      return ref(rename(node.name));
    case 'sequence':
      return { kind: 'sequence', items: node.items.map((item) => renamed(item, rename)) };
    case 'choice':
      return { kind: 'choice', options: node.options.map((option) => renamed(option, rename)) };
    case 'repeat':
      return { ...node, item: renamed(node.item, rename) };
    default:
      return node;
  }
}
