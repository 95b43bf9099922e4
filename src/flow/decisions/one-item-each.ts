/**
 * One item a call. Where a request lists several things ("Put milk, eggs and
 * bread on my list") and the model packs them into the one text of a single
 * call (add_todo({ text: "Milk, eggs, bread" })), that call is answered with
 * the reason instead of running, naming each item, and the run asks again
 * (retry-values.ts), its turn going on for the items left (more-calls.ts).
 *
 * Only a call whose arguments are one text: a form's message or a note's body
 * may hold a list, a to-do is one thing. Once a run: a model that packs them
 * again is let be.
 *
 * Why: in the page suite the 0.5B answered "Put milk, eggs and bread on my
 * list" with one to-do, "Milk, eggs, bread", and "I also need to call the
 * plumber and renew my passport" with one, the sentence whole; the continuation
 * found every asked word taken and added nothing.
 */
import type { JsonSchema, ToolDeclaration } from '../../tools/declaration';
import type { TurnProcessor } from '../types';
import { refusal } from '../call-processors/refusal';
import { itemsListed } from './items-listed';
import { runRequest } from './run-request';
import { isSlipOf, mendTypos } from './typos';
import { argumentWords, stem, toolWords, valueWords } from './value-words';

export const SEVERAL_IN_ONE = 'several-in-one';

/** Where a call's one text lists things: commas, semicolons, "and", "&", "plus", "then". */
const SEPARATOR = /\s*(?:[,;&]|\b(?:and|plus|then)\b)\s*/i;

export const oneItemEach: TurnProcessor = (inv, turn) => {
  if (!inv.decisions?.moreCalls || !inv.decisions.retry || inv.run.oneItemEach) return;
  const [only, ...others] = turn.calls;
  if (!only || others.length || only.response || !only.declaration) return;
  const [key, text] = soleText(only.args) ?? [];
  const request = runRequest(inv);
  if (key === undefined || text === undefined || !request || itemsListed(request) < 2) return;
  const own = toolWords([only.declaration]);
  const asked = valueWords(request, own);
  const pieces = text
    .split(SEPARATOR)
    .map((piece) => piece.trim().replace(/[.!]+$/, ''))
    .filter(Boolean);
  // Every piece one of the things asked: "Milk, eggs, bread" is three; "Salt and pepper crisps" for "add crisps" is one.
  // A word the visitor misspelt counts as the word the model wrote for it ("onoins": "Onions").
  const holds = (words: ReadonlySet<string>, word: string) =>
    words.has(word) || [...words].some((other) => isSlipOf(other, word));
  const fitting = pieces.filter((piece) => [...argumentWords(piece)].some((word) => holds(asked, word)));
  if (fitting.length < 2 || fitting.length !== pieces.length) return;
  const items = fitting.map((piece) => itemOf(piece, own));
  // The things the request lists that the call left out ("tomatos" of "ad tomatos, onoins and garlic"), as typed.
  const inCall = new Set(fitting.flatMap((piece) => [...valueWords(piece, own)]));
  for (const piece of mendTypos(request, [only.declaration]).split(SEPARATOR)) {
    const item = itemOf(piece.trim().replace(/[.!?]+$/, ''), own);
    const words = [...valueWords(item, own)];
    if (words.length && !words.some((word) => holds(inCall, word))) items.push(item);
  }
  const name = only.call.name;
  inv.run.oneItemEach = { tool: name, key, items };
  only.response = refusal(
    turn,
    only,
    `Not run: ${JSON.stringify(text)} is ${fitting.length} items in one ${name} call, and ${name} takes one. Call ${name} once for each: ${items.map((item) => JSON.stringify(item)).join(', ')}.`,
    SEVERAL_IN_ONE,
  );
};

/** Words that open where a thing goes: "to the shopping list", "on my list", "into my notes". */
const TOWARDS = new Set(['to', 'on', 'onto', 'in', 'into']);

/**
 * A piece without the request's own words at its edges: the 0.5B passed the request whole, "Put milk, eggs and
 * bread on my list", whose pieces "Put milk" and "bread on my list" are milk and bread. Where the piece ends in
 * a place named by the tool's own words, the place goes from its preposition on: "sugar to the shopping list" is
 * sugar (the page suite's 0.5B added the to-do "sugar to the shopping").
 */
function itemOf(piece: string, own: ReadonlySet<string>): string {
  const words = withoutPlace(piece.split(/\s+/), own);
  const telling = (word: string) => valueWords(word, own).size > 0;
  let start = 0;
  let end = words.length;
  while (start < end - 1 && !telling(words[start]!)) start++;
  while (end > start + 1 && !telling(words[end - 1]!)) end--;
  return words.slice(start, end).join(' ');
}

/** `words` up to the last preposition after their first word, when the last word is one of the tool's own. */
function withoutPlace(words: string[], own: ReadonlySet<string>): string[] {
  const last = words.at(-1)?.replace(/[^\p{L}\p{N}]/gu, '');
  if (!last || !own.has(stem(last))) return words;
  for (let i = words.length - 2; i > 0; i--) if (TOWARDS.has(words[i]!.toLowerCase())) return words.slice(0, i);
  return words;
}

/** The call's one argument and its text, when its arguments are exactly one string. */
function soleText(args: unknown): [string, string] | undefined {
  if (!args || typeof args !== 'object' || Array.isArray(args)) return undefined;
  const entries = Object.entries(args);
  const [key, value] = entries[0] ?? [];
  return entries.length === 1 && key !== undefined && typeof value === 'string' ? [key, value] : undefined;
}

/**
 * The retry's arguments: the refused call's one text held to one of its items, so the model that packed them
 * cannot pack them again (the 0.5B, told "Call add_todo once for each", wrote "Milk, eggs, bread" once more).
 */
export function oneItemArguments(
  refused: NonNullable<Parameters<TurnProcessor>[0]['run']['oneItemEach']>,
  tools: readonly ToolDeclaration[],
): Record<string, ToolDeclaration['parameters']> | undefined {
  const tool = tools.find((candidate) => candidate.name === refused.tool);
  const properties = tool?.parameters.properties as Record<string, JsonSchema> | undefined;
  const property = properties?.[refused.key];
  if (!tool || !property || typeof property !== 'object') return undefined;
  return {
    [tool.name]: {
      ...tool.parameters,
      properties: { ...properties, [refused.key]: { ...property, enum: refused.items } },
    },
  };
}
