/**
 * Free text that holds none of some strings until one of them is written,
 * as grammar rules: what xgrammar's triggered tags mean by "any text until a
 * trigger", and a tag's `any_text` content by "any text until the tag's end".
 * GBNF has no "anything but this string", so it is spelled out as the
 * automaton that watches for the strings (Aho-Corasick): one rule per state,
 * one alternative per group of characters that lead to the same state, and
 * the rest of the text once a string is complete.
 */
import { charSet, complement, type CharSet } from '../grammar/char-set';
import { choice, literal, ref, sequence, type GrammarNode } from './grammar-tree';

export interface TextUntil {
  /** The strings watched for. */
  stops: readonly string[];
  /** What follows stop `index` once it is written; undefined: the text ends with it. */
  after(index: number): GrammarNode | undefined;
  /** Whether the text may end while no stop is complete (a trigger may never come; a tag's end must). */
  mayEnd: boolean;
}

export interface TextUntilRules {
  /** The rule of the text from its start. */
  start: string;
  /** The rule of the rest of the text once `text` is written; undefined when `text` completes a stop. */
  after(text: string): string | undefined;
}

/** The rules, added through `addRule`. */
export function textUntil(
  shape: TextUntil,
  name: (state: number) => string,
  addRule: (name: string, body: GrammarNode) => void,
): TextUntilRules {
  const automaton = buildAutomaton(shape.stops);
  const alphabet = charSet(...shape.stops.join(''));
  const others = complement(alphabet);
  for (let state = 0; state < automaton.length; state++) {
    if (automaton[state].output !== undefined) continue; // complete: the text went on in `after`
    const byTarget = new Map<number, number[]>();
    for (const codePoint of codePointsOf(alphabet)) {
      const target = step(automaton, state, codePoint);
      let list = byTarget.get(target);
      if (!list) byTarget.set(target, (list = []));
      list.push(codePoint);
    }
    const options: GrammarNode[] = shape.mayEnd ? [literal('')] : [];
    for (const [target, codePoints] of byTarget) {
      const chars: GrammarNode = { kind: 'chars', set: charSet(...codePoints.map((cp): [number, number] => [cp, cp])) };
      const complete = automaton[target].output;
      if (complete === undefined) options.push(sequence(chars, ref(name(target))));
      else {
        const after = shape.after(complete);
        options.push(after ? sequence(chars, after) : chars);
      }
    }
    if (others.length) options.push(sequence({ kind: 'chars', set: others }, ref(name(0))));
    addRule(name(state), choice(...options));
  }
  return {
    start: name(0),
    after(text) {
      let state = 0;
      for (const ch of text) {
        state = step(automaton, state, ch.codePointAt(0)!);
        if (automaton[state].output !== undefined) return undefined;
      }
      return name(state);
    },
  };
}

interface State {
  children: Map<number, number>;
  fail: number;
  /** The stop that is complete in this state (its own, or one that ends its longest proper suffix). */
  output?: number;
}

function buildAutomaton(stops: readonly string[]): State[] {
  const states: State[] = [{ children: new Map(), fail: 0 }];
  stops.forEach((stop, index) => {
    let state = 0;
    for (const ch of stop) {
      const codePoint = ch.codePointAt(0)!;
      let next = states[state].children.get(codePoint);
      if (next === undefined) {
        next = states.length;
        states.push({ children: new Map(), fail: 0 });
        states[state].children.set(codePoint, next);
      }
      state = next;
    }
    states[state].output ??= index;
  });
  // Breadth first, so that every state's failure link is set before its children's.
  const queue = [...states[0].children.values()];
  while (queue.length) {
    const state = queue.shift()!;
    for (const [codePoint, child] of states[state].children) {
      let fallback = states[state].fail;
      while (fallback !== 0 && !states[fallback].children.has(codePoint)) fallback = states[fallback].fail;
      const target = states[fallback].children.get(codePoint);
      states[child].fail = target !== undefined && target !== child ? target : 0;
      states[child].output ??= states[states[child].fail].output;
      queue.push(child);
    }
  }
  return states;
}

function step(states: State[], from: number, codePoint: number): number {
  for (let state = from; ; state = states[state].fail) {
    const next = states[state].children.get(codePoint);
    if (next !== undefined) return next;
    if (state === 0) return 0;
  }
}

/** Every code point of a set; only for the small alphabets of stop strings. */
function codePointsOf(set: CharSet): number[] {
  return set.flatMap(([lo, hi]) => Array.from({ length: hi - lo + 1 }, (_, i) => lo + i));
}
