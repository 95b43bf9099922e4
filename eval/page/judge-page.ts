/**
 * The page after a request against the page before it and the change the
 * request asked for: what it names must have happened, and nothing else may
 * have changed. Relative to the page before, so that a request is judged on
 * its own even when an earlier one went wrong (a missing item stays missing,
 * but is not this request's fault). Each problem is a sentence for the
 * results' `why`.
 */
import type { PageChange } from './expectation';
import { matchOneEach } from './match-one-each';
import type { PageState } from './page-state';
import { matchesText, type TextMatch } from './text-match';

export function judgePage(before: PageState, after: PageState, change: PageChange = {}): string[] {
  return [
    ...judgeTodos(before.todos, after.todos, change.todos),
    ...judgeNotes(before.notes, after.notes, change.notes),
    ...judgeTable(before.table, after.table, change.table),
    ...judgeForm(before.form, after.form, change.form),
  ];
}

type Todo = PageState['todos'][number];

function judgeTodos(before: Todo[], after: Todo[], change: PageChange['todos'] = {}): string[] {
  if (change.cleared) return after.length ? [`the list was not cleared: ${listOf(after)}`] : [];
  // Items are added at the end; the ones before keep their place and text.
  const old = after.slice(0, before.length);
  const added = after.slice(before.length);
  if (old.length < before.length || old.some((item, i) => item.text !== before[i]!.text))
    return [`the to-do list should be ${listOf(before)} and then what was added; it is ${listOf(after)}`];
  const problems: string[] = [];
  const named = (item: Todo) => (change.done ?? []).some((pattern) => matchesText(item.text, pattern));
  // An item the request names is done afterwards (complete_todo marks the first that matches); the others keep their mark.
  for (const [i, item] of old.entries())
    if (!named(item) && item.done !== before[i]!.done)
      problems.push(`"${item.text}" was ${item.done ? 'marked done' : 'unmarked'}, and not asked to be`);
  for (const pattern of change.done ?? [])
    if (!old.some((item) => item.done && matchesText(item.text, pattern)))
      problems.push(`no to-do "${pattern}" is marked done`);
  const { missing, extra } = matchAll(
    added.map((item) => item.text),
    change.added ?? [],
    change.mayAdd ?? [],
  );
  for (const pattern of missing) problems.push(`no to-do "${pattern}" was added`);
  for (const text of extra) problems.push(`"${text}" was added to the to-dos, and not asked for`);
  for (const item of added) if (item.done) problems.push(`the new to-do "${item.text}" is marked done`);
  return problems;
}

function judgeNotes(before: PageState['notes'], after: PageState['notes'], change: PageChange['notes'] = {}): string[] {
  const kept = before.every((note, i) => after[i]?.title === note.title && after[i]?.body === note.body);
  if (!kept) return ['the notes written before changed'];
  const added = after.slice(before.length).map((note) => `${note.title} ${note.body}`);
  const { missing, extra } = matchAll(added, change.added ?? [], change.mayAdd ?? []);
  return [
    ...missing.map((pattern) => `no note with "${pattern}" was written`),
    ...extra.map((text) => `a note "${text.trim()}" was written, and not asked for`),
  ];
}

function judgeTable(
  before: PageState['table'],
  after: PageState['table'],
  change: PageChange['table'] = [before],
): string[] {
  if (change.some((table) => same(table.shown, after.shown))) return [];
  const wanted = change.map((table) => table.shown.join(', ')).join(' or ');
  return [`the table shows ${after.shown.join(', ') || 'no rows'}; it should show ${wanted}`];
}

function judgeForm(before: PageState['form'], after: PageState['form'], change?: PageChange['form']): string[] {
  if (!change)
    return same(Object.values(before), Object.values(after))
      ? []
      : [`the form changed, and was not asked to: ${JSON.stringify(after)}`];
  const problems: string[] = [];
  if (!matchesText(after.name, change.name)) problems.push(`the form's name is "${after.name}", not "${change.name}"`);
  if (after.email.trim().toLowerCase() !== change.email.toLowerCase())
    problems.push(`the form's email is "${after.email}", not ${change.email}`);
  if (!matchesText(after.message, change.message))
    problems.push(`the form's message "${after.message}" does not say "${change.message}"`);
  return problems;
}

/** The required patterns no text fits (each text fitting one pattern at most), and the texts no pattern took. */
function matchAll(
  texts: string[],
  required: TextMatch[],
  optional: TextMatch[],
): { missing: TextMatch[]; extra: string[] } {
  const taken = matchOneEach(texts, [...required, ...optional], matchesText);
  return {
    missing: required.filter((_, p) => taken[p] === undefined),
    extra: texts.filter((_, t) => !taken.includes(t)),
  };
}

const same = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);
const listOf = (todos: Todo[]) => (todos.length ? todos.map((todo) => `"${todo.text}"`).join(', ') : 'empty');
