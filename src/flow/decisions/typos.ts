/**
 * A request with its misspelt tool words spelled as the tools spell them:
 * "ad tomatos to teh lsit" reads "add tomatos to teh list", "sortt prodcts
 * by price" reads "sort product by price". The decision layer reads the
 * mended request (what it asks, what it names); the model reads the
 * visitor's own words.
 *
 * The words mended toward are the ones a decision turns on: the tools'
 * action verbs and the words of their names.
 *
 * Why: the page suite's conversation of misspelt requests was held to words
 * three times of three (no word of it was any tool's), and a visitor types
 * fast. Only slips that seldom make another English word count: two
 * neighbouring letters swapped ("lsit"), a doubled letter written once or
 * twice ("ad", "sortt"), and, in words of six letters or more, one letter
 * missing, extra or wrong inside the word ("compelte", "complte"; at its end
 * it is another form: "movie", "movies"). A word any sentence has ("from",
 * so never "form"), a word inside a name, path or address, and a word in capitals or
 * with a capital inside ("CAA", "pointA") are never mended.
 */
import type { ToolDeclaration } from '../../tools/declaration';
import { actionVerbsOf, nameAsWords } from './action-verbs';
import { isCommon, stem, toolWords } from './value-words';

/** Letters from which a word may have one missing, one extra or one wrong. */
const LONG = 6;

export function mendTypos(request: string, tools: readonly ToolDeclaration[]): string {
  const deciding = decidingWords(tools);
  const own = toolWords(tools);
  const mended = new Map<string, string | undefined>();
  // A word alone between spaces and punctuation: not part of a name, a path or an address ("pc_contoller/").
  return request.replace(/(?<=^|[\s"'(])(\p{Ll}+|\p{Lu}\p{Ll}*)(?=$|[\s"',.!?;:)])/gu, (word) => {
    const lower = word.toLowerCase();
    if (!mended.has(lower)) mended.set(lower, intendedWord(lower, deciding, own));
    return mended.get(lower) ?? word;
  });
}

/**
 * The words a decision turns on, as the tools spell them: their action verbs ("add", "clear", "tick") and the
 * words of their names ("todo", "list", "table"). Not every word of a description: its inflections ("setting",
 * "weighs") would make slips of correct words ("set", "weigh").
 */
function decidingWords(tools: readonly ToolDeclaration[]): string[] {
  const words = new Set<string>();
  for (const tool of tools) {
    for (const verb of actionVerbsOf(tool)) words.add(verb);
    const names = `${nameAsWords(tool.name)} ${tool.displayName ?? ''}`;
    for (const [word] of names.toLowerCase().matchAll(/\p{L}+/gu)) if (word.length > 1) words.add(word);
  }
  return [...words];
}

/** The deciding word `word` is a slip of, if it is not a word of the tools or a common word itself. */
function intendedWord(word: string, deciding: readonly string[], own: ReadonlySet<string>): string | undefined {
  if (own.has(stem(word)) || isCommon(word) || isCommon(stem(word))) return undefined;
  return deciding.find((intended) => isSlipOf(word, intended));
}

/** Whether `typed` is one of the slips above of `intended`. */
export function isSlipOf(typed: string, intended: string): boolean {
  if (typed.length === intended.length) return swappedOrWrong(typed, intended);
  if (typed.length === intended.length + 1) return oneMissing(typed, intended);
  if (typed.length + 1 === intended.length) return oneMissing(intended, typed);
  return false;
}

function swappedOrWrong(typed: string, intended: string): boolean {
  const at = firstDifference(typed, intended);
  if (!inside(at, intended)) return false;
  const swapped =
    typed.length >= 4 &&
    typed[at] === intended[at + 1] &&
    typed[at + 1] === intended[at] &&
    typed.slice(at + 2) === intended.slice(at + 2);
  return swapped || (typed.length >= LONG && typed.slice(at + 1) === intended.slice(at + 1));
}

/** Whether `shorter` is `longer` with one letter left out: a doubled one, or any inside a long word. */
function oneMissing(longer: string, shorter: string): boolean {
  const at = firstDifference(longer, shorter);
  if (longer.slice(at + 1) !== shorter.slice(at)) return false;
  const doubled = longer[at] === longer[at - 1] || longer[at] === longer[at + 1];
  return doubled || (shorter.length >= LONG - 1 && inside(at, longer));
}

/** A slip inside a word, not at its end: an ending changed is another form of it ("movie", "movies"; "weigh", "weight"). */
function inside(at: number, word: string): boolean {
  return at < word.length - 2;
}

function firstDifference(a: string, b: string): number {
  let at = 0;
  while (at < a.length && a[at] === b[at]) at++;
  return at;
}
