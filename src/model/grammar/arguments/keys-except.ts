/**
 * Names that are none of a list, as EBNF: where an object may hold
 * properties it does not declare, such a property never repeats a declared one.
 */
import { charSet, ebnfClass, ebnfLiteral, hasChar, isEmpty, subtract, type CharSet } from '../char-set';

/**
 * Names that are none of `declared`, over the given characters: a trie of the
 * declared names where every step off it, and every end that is not a
 * declared name, is allowed.
 */
export function keysExcept(
  declared: readonly string[],
  first: CharSet,
  rest: CharSet,
  allowEmpty: boolean,
  rule: (body: string) => string,
): string | undefined {
  interface Node {
    children: Map<number, Node>;
    end: boolean;
  }
  const root: Node = { children: new Map(), end: false };
  for (const name of declared) {
    let node = root;
    for (const ch of name) {
      const codePoint = ch.codePointAt(0)!;
      let child = node.children.get(codePoint);
      if (!child) node.children.set(codePoint, (child = { children: new Map(), end: false }));
      node = child;
    }
    node.end = true;
  }
  const tail = rule(`${ebnfClass(rest)}*`);
  const visit = (node: Node, depth: number): string | undefined => {
    const alphabet = depth === 0 ? first : rest;
    const options: string[] = [];
    if (!node.end && (depth > 0 || allowEmpty)) options.push('""');
    const stepsOff = subtract(alphabet, charSet(...[...node.children.keys()].map((cp): [number, number] => [cp, cp])));
    if (!isEmpty(stepsOff)) options.push(`${ebnfClass(stepsOff)} ${tail}`);
    for (const [codePoint, child] of node.children) {
      if (!hasChar(alphabet, codePoint)) continue;
      const after = visit(child, depth + 1);
      if (after !== undefined) options.push(`${ebnfLiteral(String.fromCodePoint(codePoint))} ${after}`);
    }
    // A rule per node: nesting one expression per character of a long name would nest the grammar too deep.
    return options.length ? rule(options.join(' | ')) : undefined;
  };
  return visit(root, 0);
}
