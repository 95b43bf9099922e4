/**
 * Among the tools a request asks for by a verb they share ("put" and "add"
 * are add_todo's and add_note's), the ones it names: a word of a tool's name
 * that the other tools' names lack ("todo", "note") in the request's words.
 * When it names none of them and no other word of it points to some, the
 * ones whose description opens with a verb the request uses ("add dry
 * cleaning": add_todo, "Add an item…", not add_note, "Write a note…"); else
 * (or when it names each) every one stays and the model picks.
 * Tools asked by verbs of their own ("convert … and deposit …") all stay.
 *
 * Why: "put 'send the agenda' on the todo list too", held to add_todo or
 * add_note, got add_note from Qwen2.5-Coder 0.5B; offered add_todo alone, it
 * added the to-do; held to both for "add dry cleaning" (the first request of
 * a session), it wrote add_todo and add_note. Unlike toolsThatFit it reads
 * only the tools' names and descriptions' verbs.
 */
import type { ToolDeclaration } from '../../tools/declaration';
import { actionVerbsOf, describedVerbOf, formsOf, nameAsWords } from './action-verbs';
import { fittingTools } from './fitting-tools';
import { stem, valueWords } from './value-words';

export function namedTools(request: string, asked: readonly string[], tools: readonly ToolDeclaration[]): string[] {
  if (asked.length < 2 || !shareAVerb(asked, tools)) return [...asked];
  // "to-do" is "todo", as names spell it.
  const words = valueWords(request.replace(/(\p{L})-(\p{L})/gu, '$1$2'), new Set());
  const nameWords = new Map(asked.map((name) => [name, wordsOfName(name, tools)]));
  const named = asked.filter((name) => {
    const others = asked.filter((other) => other !== name).flatMap((other) => nameWords.get(other)!);
    return nameWords.get(name)!.some((word) => !others.includes(word) && words.has(word));
  });
  if (named.length) return named;
  // Named by none, and no other word of the request pointing to some of them, the ones whose own
  // description opens with a verb the request uses: "add dry cleaning" is add_todo's "Add an item to the to-do
  // list", not add_note's "Write a note".
  const askedTools = tools.filter((tool) => asked.includes(tool.name));
  if (fittingTools(request, askedTools).length < asked.length) return [...asked];
  const said = new Set(request.toLowerCase().match(/[a-z]+/g) ?? []);
  const described = asked.filter((name) => {
    const verb = describedVerbOf(tools.find((tool) => tool.name === name)!);
    if (!verb) return false;
    const { base, third, done, ing } = formsOf(verb);
    return [base, third, ...done, ing].some((form) => said.has(form));
  });
  return described.length ? described : [...asked];
}

/** Whether the tools have an action verb in common: tools asked by verbs of their own are each asked for. */
function shareAVerb(asked: readonly string[], tools: readonly ToolDeclaration[]): boolean {
  const verbs = asked.map((name) => actionVerbsOf(tools.find((tool) => tool.name === name)!));
  return verbs[0]!.some((verb) => verbs.every((own) => own.includes(verb)));
}

/** The words of a tool's name and display name, stemmed ("clear_todos": clear, todo). */
function wordsOfName(name: string, tools: readonly ToolDeclaration[]): string[] {
  const display = tools.find((tool) => tool.name === name)?.displayName ?? '';
  const text = `${nameAsWords(name)} ${display.replace(/(\p{L})-(\p{L})/gu, '$1$2')}`;
  return [...text.toLowerCase().matchAll(/\p{L}+/gu)].map(([word]) => stem(word));
}
