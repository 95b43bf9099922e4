/**
 * The verbs that name what a tool does, in the forms a reply uses when it
 * says the thing was done or will be: "add" → added, adding, adds, add. Read
 * from the tool itself (its name's first word, its description's first word,
 * its display name's), so that any page's tools are covered without a list
 * of them. English only: a reply in another language claims nothing here.
 */
import type { ToolDeclaration } from '../../tools/declaration';

/** Verbs whose forms are not the regular ones. */
const IRREGULAR: Readonly<Record<string, readonly string[]>> = {
  write: ['wrote', 'written', 'writing'],
  send: ['sent', 'sending'],
  set: ['set', 'setting'],
  put: ['put', 'putting'],
  make: ['made', 'making'],
  read: ['read', 'reading'],
  get: ['got', 'gotten', 'getting'],
  find: ['found', 'finding'],
  take: ['took', 'taken', 'taking'],
  give: ['gave', 'given', 'giving'],
  do: ['did', 'done', 'doing'],
  run: ['ran', 'running'],
  buy: ['bought', 'buying'],
  pay: ['paid', 'paying'],
  show: ['showed', 'shown', 'showing'],
  begin: ['began', 'begun', 'beginning'],
  choose: ['chose', 'chosen', 'choosing'],
  draw: ['drew', 'drawn', 'drawing'],
  keep: ['kept', 'keeping'],
  leave: ['left', 'leaving'],
  tell: ['told', 'telling'],
  book: ['booked', 'booking'],
};

/**
 * Verbs a tool's words start with that say no action by themselves: "get" and "read" are a question's
 * tools ("Read the to-do list"), whose answer is not a claim of an action; "is", "returns" describe.
 */
const NOT_ACTIONS = new Set([
  'get',
  'read',
  'list',
  'show',
  'find',
  'search',
  'look',
  'fetch',
  'retrieve',
  'is',
  'returns',
  'return',
  'calculate',
  'compute',
  'check',
]);

/** Words a tool's description often opens with that are not verbs. */
const NOT_VERBS = new Set(['the', 'a', 'an', 'this', 'use', 'when', 'tool', 'function', 'to']);

/**
 * Other verbs a reply uses for the same action ("I put milk on your list" for add): a claim in any of them is
 * a claim of the tool's action.
 */
const ALSO: Readonly<Record<string, readonly string[]>> = {
  add: ['put', 'include', 'insert', 'append', 'create', 'save', 'note', 'remember', 'remind', 'log', 'record'],
  create: ['add', 'make', 'save'],
  write: ['note', 'save', 'create', 'add', 'jot', 'record'],
  delete: ['remove', 'clear', 'erase', 'empty', 'wipe'],
  remove: ['delete', 'clear', 'erase'],
  clear: ['delete', 'remove', 'erase', 'empty', 'wipe'],
  complete: ['mark', 'finish', 'check', 'tick', 'cross'],
  toggle: ['mark', 'complete', 'check', 'tick', 'uncheck', 'finish'],
  mark: ['complete', 'finish', 'check', 'tick', 'cross'],
  sort: ['order', 'arrange', 'rank', 'reorder', 'filter'],
  fill: ['enter', 'populate', 'complete', 'prefill', 'type'],
  send: ['submit', 'email', 'post'],
  submit: ['send', 'post'],
  update: ['change', 'edit', 'modify', 'set', 'rename'],
  book: ['reserve', 'schedule'],
};

/** A verb's forms, by what they say in a reply: done (past, participle), under way (-ing), or not yet (base, -s). */
export interface VerbForms {
  base: string;
  third: string;
  done: string[];
  ing: string;
}

/** A verb's forms, spelled as English spells them. */
export function formsOf(verb: string): VerbForms {
  const base = verb.toLowerCase();
  const third = /(s|sh|ch|x|z|o)$/.test(base)
    ? `${base}es`
    : /[^aeiou]y$/.test(base)
      ? `${base.slice(0, -1)}ies`
      : `${base}s`;
  const own = IRREGULAR[base];
  if (own)
    return {
      base,
      third,
      done: own.filter((form) => !form.endsWith('ing')),
      ing: own.find((form) => form.endsWith('ing'))!,
    };
  // A short verb ending vowel-consonant doubles it (stop, stopped); long ones mostly do not (order, ordered).
  const doubled = /^[^aeiou]*[aeiou][bdgmnprt]$/.test(base) ? base + base.at(-1) : base;
  const past = base.endsWith('e') ? `${base}d` : /[^aeiou]y$/.test(base) ? `${base.slice(0, -1)}ied` : `${doubled}ed`;
  const ing = base.endsWith('ie')
    ? `${base.slice(0, -2)}ying`
    : base.endsWith('e') && !base.endsWith('ee')
      ? `${base.slice(0, -1)}ing`
      : `${doubled}ing`;
  return { base, third, done: [past], ing };
}

/** The action verbs of a tool, lower case, without their forms; none for a tool that only reads. */
export function actionVerbsOf(
  tool: Pick<ToolDeclaration, 'name' | 'description' | 'displayName' | 'annotations'>,
): string[] {
  return [...new Set(ownVerbsOf(tool).flatMap((verb) => [verb, ...(ALSO[verb] ?? [])]))];
}

/** The verbs a tool's own name, description and display name open with, without the verbs akin to them. */
export function ownVerbsOf(
  tool: Pick<ToolDeclaration, 'name' | 'description' | 'displayName' | 'annotations'>,
): string[] {
  if (tool.annotations.readOnly) return [];
  const words = [firstWord(nameAsWords(tool.name)), firstWord(tool.description), firstWord(tool.displayName ?? '')];
  return [...new Set(words.filter((word): word is string => Boolean(word) && !NOT_ACTIONS.has(word!)))];
}

/** The verb a tool's description opens with ("Add an item…": add), if it is an action's. */
export function describedVerbOf(tool: Pick<ToolDeclaration, 'description' | 'annotations'>): string | undefined {
  const word = tool.annotations.readOnly ? undefined : firstWord(tool.description);
  // "Adds a new server…" opens with add.
  const verb =
    word && /[^s]s$/.test(word)
      ? word
          .replace(/ies$/, 'y')
          .replace(/(s|sh|ch|x|z|o)es$/, '$1')
          .replace(/([^s])s$/, '$1')
      : word;
  return verb && !NOT_ACTIONS.has(verb) ? verb : undefined;
}

/** A tool's name as words: "addTodo" and "add_todo" are "add todo". */
export function nameAsWords(name: string): string {
  return name.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[._-]+/g, ' ');
}

function firstWord(text: string): string | undefined {
  const word = /[A-Za-z]+/.exec(text.trim())?.[0]?.toLowerCase();
  return word && !NOT_VERBS.has(word) && word.length > 1 ? word : undefined;
}
