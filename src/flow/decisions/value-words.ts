/**
 * The words of a text that can be a call's values: names, things, numbers,
 * addresses ("milk", "eggs", "Ana", "10", "ana@example.com"), without the
 * words any sentence has ("the", "please", "can") and without the words the
 * tools use to describe themselves ("list", "add", "table"), which say which
 * tool, not with what. Compared loosely: lower case, a plural or -ed/-ing
 * ending dropped, a number as its value ("5.0" is "5").
 *
 * Two uses: what a request asks that no call of its turn has taken yet (the
 * decision layer offers one more call while some is left), and whether a
 * call's value came from the visitor or from nowhere (retry-values.ts).
 */
import type { ToolDeclaration } from '../../tools/declaration';
import { actionVerbsOf, nameAsWords } from './action-verbs';

/** Words that say nothing a call could take as a value. */
const COMMON = new Set(
  (
    'a an the and or but if then so to of in on at by for with from into onto about as is are was were be been ' +
    'being am do does did done have has had having i me my mine we us our you your yours he him his she her it its ' +
    'they them their this that these those there here what which who whom whose when where why how all any both ' +
    'each few more most other some such no nor not only own same than too very can could will would shall should ' +
    'may might must just also please pls plz thanks thank ok okay yes yeah hi hey hello hmm oh well now then again ' +
    'up down out off over under one thing things something anything everything get got make made let need needs ' +
    'want wants like would like dont don t s d ll re ve m isn aren wasn weren haven hasn didn doesn cant cannot ' +
    'thing stuff bit lot lots really actually maybe first last next another new old same way whole entire every ' +
    // How to order or pick, never a value: "by price, lowest first".
    'order lowest highest cheapest priciest biggest smallest largest least top bottom ascending descending'
  ).split(' '),
);

/** A word as compared: lower case, its plural or -ed/-ing ending dropped; a number as its value. */
export function stem(word: string): string {
  const lower = word.toLowerCase();
  if (/^-?\d+(\.\d+)?$/.test(lower)) return String(Number(lower));
  if (lower.length > 4 && lower.endsWith('ies')) return `${lower.slice(0, -3)}y`;
  if (lower.length > 4 && /(ss|us|is)$/.test(lower)) return lower;
  if (lower.length > 3 && lower.endsWith('es') && /(ch|sh|x|o)es$/.test(lower)) return lower.slice(0, -2);
  if (lower.length > 3 && lower.endsWith('s')) return lower.slice(0, -1);
  if (lower.length > 5 && lower.endsWith('ing')) return lower.slice(0, -3);
  if (lower.length > 4 && lower.endsWith('ed')) return lower.slice(0, -2);
  return lower;
}

/** A word any sentence has ("the", "from", "please"): never a value, never a misspelling. */
export function isCommon(word: string): boolean {
  return COMMON.has(word);
}

/** The words of a text, each stemmed: letters (any script), or a number with its decimals. */
function wordsOf(text: string): string[] {
  return [...text.matchAll(/\d+(?:[.,]\d+)?|[\p{L}]+/gu)].map((match) => stem(match[0].replace(',', '.')));
}

/** The words the tools describe themselves with: their names, descriptions, parameters and action verbs. */
export function toolWords(tools: readonly ToolDeclaration[]): Set<string> {
  const words = describedWords(tools);
  for (const tool of tools) for (const word of wordsOf(actionVerbsOf(tool).join(' '))) words.add(word);
  return words;
}

/** The words of the tools' names, descriptions and parameters, without the verbs akin to theirs. */
export function describedWords(tools: readonly ToolDeclaration[]): Set<string> {
  const words = new Set<string>();
  for (const tool of tools) {
    const text = [nameAsWords(tool.name), tool.description, tool.whenToUse ?? '', parameterText(tool.parameters)].join(
      ' ',
    );
    for (const word of wordsOf(text)) words.add(word);
  }
  return words;
}

/** A schema's property names, descriptions and enum values, nested ones too: how a tool says what it takes. */
function parameterText(schema: unknown): string {
  if (!schema || typeof schema !== 'object') return '';
  const { properties, items, description, enum: choices } = schema as Record<string, unknown>;
  const own = [typeof description === 'string' ? description : '', Array.isArray(choices) ? choices.join(' ') : ''];
  const nested = Object.entries((properties as Record<string, unknown> | undefined) ?? {}).map(
    ([name, property]) => `${name.replace(/[_-]+/g, ' ')} ${parameterText(property)}`,
  );
  return [...own, ...nested, parameterText(items)].join(' ');
}

/** The words of `text` a call could take as values: not common, not the tools' own. */
export function valueWords(text: string, tools: ReadonlySet<string>): Set<string> {
  return new Set(wordsOf(text).filter((word) => !COMMON.has(word) && !tools.has(word)));
}

/** Every word of a call's arguments (keys left out), stemmed. */
export function argumentWords(args: unknown): Set<string> {
  const words = new Set<string>();
  const walk = (value: unknown): void => {
    if (typeof value === 'string') for (const word of wordsOf(value)) words.add(word);
    else if (typeof value === 'number') words.add(stem(String(value)));
    else if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') Object.values(value).forEach(walk);
  };
  walk(args);
  return words;
}
