// The sample app's tools: each reads or changes this page's DOM, as a real page's tools would.
import { defineTool, findItem, z } from '../../src/index';

const $ = <T extends Element>(selector: string) => document.querySelector<T>(selector)!;

/** Marks what a tool just changed, so the visitor's eye finds it; and tells the page it changed. */
function changed(element: Element): void {
  element.classList.remove('flash');
  void (element as HTMLElement).offsetWidth;
  element.classList.add('flash');
  element.scrollIntoView({ block: 'nearest' });
  document.dispatchEvent(new CustomEvent('page-changed'));
}

function todoItems() {
  return [...$('#todos').querySelectorAll('li')].map((li) => ({
    id: li.dataset.id!,
    text: li.querySelector('span')!.textContent!,
    done: li.classList.contains('done'),
  }));
}

export function addTodoItem(text: string): string {
  const id = `t${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
  const item = document.createElement('li');
  item.dataset.id = id;
  const box = document.createElement('input');
  box.type = 'checkbox';
  box.setAttribute('aria-label', `Done: ${text}`);
  box.addEventListener('change', () => item.classList.toggle('done', box.checked));
  const label = document.createElement('span');
  label.textContent = text;
  item.append(box, label);
  $('#todos').append(item);
  changed(item);
  return id;
}

export const addTodo = defineTool({
  name: 'add_todo',
  displayName: 'Add to-do',
  description: 'Add an item to the to-do list on this page.',
  whenToUse: 'When the user asks to remember a task.',
  parameters: z.object({ text: z.string().min(1).max(200) }),
  execute: ({ text }) => ({ id: addTodoItem(text) }),
});

export const completeTodo = defineTool({
  name: 'complete_todo',
  displayName: 'Complete to-do',
  description: "Mark a to-do as done. Pass the visitor's own words for it.",
  parameters: z.object({ text: z.string().min(1) }),
  annotations: { idempotent: true },
  // The visitor's words, matched loosely (docs/tool-design.md): "the milk one", "the second one", "mlik".
  execute: ({ text }) => {
    const items = [...$('#todos').querySelectorAll('li')];
    const found = findItem(items, text, {
      text: (li) => li.querySelector('span')!.textContent!,
      noun: 'to-do',
      ignore: ['task', 'item'],
    });
    // Nothing fits, or two fit equally: the model reads why, and answers the visitor with it.
    if (!found.found) throw new Error(found.message);
    const item = found.item;
    item.classList.add('done');
    item.querySelector<HTMLInputElement>('input')!.checked = true;
    changed(item);
    return { done: item.querySelector('span')!.textContent };
  },
});

export const listTodos = defineTool({
  name: 'list_todos',
  displayName: 'List to-dos',
  description: 'Read the to-do list on this page.',
  parameters: z.object({}),
  annotations: { readOnly: true },
  execute: () => todoItems(),
});

export const clearTodos = defineTool({
  name: 'clear_todos',
  displayName: 'Clear all to-dos',
  description: 'Delete every item of the to-do list.',
  parameters: z.object({}),
  annotations: { destructive: true },
  execute: () => {
    const count = todoItems().length;
    $('#todos').replaceChildren();
    changed($('#todos'));
    return { cleared: count };
  },
});

export const addNote = defineTool({
  name: 'add_note',
  displayName: 'Add note',
  description: 'Write a note on this page.',
  parameters: z.object({ title: z.string().min(1), body: z.string() }),
  execute: ({ title, body }) => {
    const note = document.createElement('article');
    const heading = document.createElement('h3');
    heading.textContent = title;
    const text = document.createElement('p');
    text.textContent = body;
    note.append(heading, text);
    $('#notes').append(note);
    changed(note);
    return { notes: $('#notes').children.length };
  },
});

export const sortTable = defineTool({
  name: 'sort_table',
  displayName: 'Sort table',
  description: 'Sort the products table by a column, and optionally keep only rows whose name contains a text.',
  // Each optional parameter says what it is for: undescribed, the 0.5B set descending for "cheapest first" and
  // "lowest first", and filled filter with a phrase of its own ("price < 100").
  parameters: z.object({
    column: z.enum(['name', 'price', 'stock']),
    descending: z
      .boolean()
      .optional()
      .describe('true for the highest first (most expensive, most stock, Z to A); leave it out for the lowest first'),
    filter: z
      .string()
      .optional()
      .describe('a word of the product names the visitor wants to see alone; leave it out to show them all'),
  }),
  annotations: { idempotent: true },
  execute: ({ column, descending, filter }) => {
    const body = $<HTMLTableSectionElement>('#products tbody');
    const index = { name: 0, price: 1, stock: 2 }[column];
    const rows = [...body.rows];
    const value = (row: HTMLTableRowElement) => row.cells[index]!.textContent!;
    const name = (row: HTMLTableRowElement) => row.cells[0]!.textContent!;
    // The visitor's plural ("mugs", "kettles") finds the product's name ("Mug", "Kettle").
    const wanted = filter?.trim().toLowerCase();
    const forms = wanted ? [wanted, wanted.replace(/e?s$/, '')].filter(Boolean) : [];
    const kept = (row: HTMLTableRowElement) =>
      !wanted || [value(row), name(row)].some((text) => forms.some((form) => text.toLowerCase().includes(form)));
    // A filter no row holds would empty the table: say so and change nothing (a small model fills an optional
    // filter with a word of the request, "price"), so the model reads why and can sort without it.
    if (!rows.some(kept))
      throw new Error(
        `No product holds "${filter}", so nothing was sorted. The products are: ${rows.map(name).join(', ')}. Leave filter out to sort them all.`,
      );
    rows.sort(
      (a, b) =>
        (index === 0 ? value(a).localeCompare(value(b)) : Number(value(a)) - Number(value(b))) * (descending ? -1 : 1),
    );
    for (const row of rows) {
      row.hidden = !kept(row);
      body.append(row);
    }
    changed($('#products'));
    return { order: rows.filter((row) => !row.hidden).map((row) => row.cells[0]!.textContent) };
  },
});

export const fillForm = defineTool({
  name: 'fill_form',
  displayName: 'Fill the contact form',
  description: 'Fill the contact form on this page (it is not sent; the person reviews and sends it).',
  parameters: z.object({ name: z.string().min(1), email: z.email(), message: z.string().min(1) }),
  execute: ({ name, email, message }) => {
    $<HTMLInputElement>('#form-name').value = name;
    $<HTMLInputElement>('#form-email').value = email;
    $<HTMLTextAreaElement>('#form-message').value = message;
    changed($('#contact'));
    return { filled: ['name', 'email', 'message'] };
  },
});

export const pageTools = [addTodo, completeTodo, listTodos, clearTodos, addNote, sortTable, fillForm];

/** What the page tells an instruction-tuned model (the page-task suite, eval/page/, asks with the same words). */
export const PAGE_INSTRUCTIONS =
  'You help with this page: its to-dos, notes, products table and contact form. Use the tools; answer briefly.';

/** A tool's name as a person reads it ("Add to-do"). */
export function displayNameOf(name: string): string {
  return pageTools.find((tool) => tool.name === name)?.displayName ?? name;
}

/** One line about the page, for its collapsed header on a phone. */
export function pageSummary(): string {
  const todos = todoItems();
  const open = todos.filter((todo) => !todo.done).length;
  const notes = $('#notes').children.length;
  $<HTMLElement>('#todos-empty').hidden = todos.length > 0;
  $<HTMLElement>('#notes-empty').hidden = notes > 0;
  return `${todos.length ? `${open} open to-do${open === 1 ? '' : 's'}` : 'no to-dos'} · ${notes} note${notes === 1 ? '' : 's'}`;
}

/**
 * Puts back what a session's successful calls did to the page, in order, when it is opened
 * again (a reload, or another session): the page's state lives in the DOM, the calls in the log.
 */
export async function replayCall(name: string, args: unknown): Promise<void> {
  const tool = pageTools.find((candidate) => candidate.name === name);
  if (!tool || name === 'list_todos') return;
  try {
    await (tool.execute as (args: unknown, ctx: unknown) => unknown)(args, {});
  } catch {
    // It failed the first time too, or the page differs now: nothing to put back.
  }
}
