// The demo's own tools on the demo's page parts, called with what the real 0.5B passed them in the page suite:
// a whole sentence for the to-do, "the second one", and an optional filter filled with a word of the request.
import { beforeEach, describe, expect, test } from 'vitest';
import { addTodoItem, completeTodo, sortTable } from '../../demo/app/page-tools';
import { mountPageParts } from '../../eval/page/page-parts';
import type { ToolContext } from '../../src/index';

const context = {} as ToolContext;
const shown = () =>
  [...document.querySelectorAll<HTMLTableRowElement>('#products tbody tr')]
    .filter((row) => !row.hidden)
    .map((row) => row.cells[0]!.textContent);
const done = () => [...document.querySelectorAll('#todos li.done span')].map((span) => span.textContent);

beforeEach(() => {
  mountPageParts();
  for (const text of ['Milk', 'Eggs', 'Bread', 'Call the plumber']) addTodoItem(text);
});

describe("the demo's tools take a small model's words", () => {
  test.each([
    ['the second one', 'Eggs'],
    ['Mark the plumber one as done.', 'Call the plumber'],
    ['mlik', 'Milk'],
  ])('complete_todo("%s") marks %s', (text, item) => {
    expect(completeTodo.execute({ text }, context)).toEqual({ done: item });
    expect(done()).toEqual([item]);
  });

  test('complete_todo with words no to-do holds changes nothing, and says what there is', () => {
    expect(() => completeTodo.execute({ text: 'coffee' }, context)).toThrow(
      'No to-do matches "coffee". The to-dos are: Milk, Eggs, Bread, Call the plumber.',
    );
    expect(done()).toEqual([]);
    // The page suite's 0.5B answered "only show me the teapot" this way, with a kettle on the list.
    addTodoItem('Buy a new kettle.');
    expect(() => completeTodo.execute({ text: 'Buy a new teapot.' }, context)).toThrow('No to-do matches');
    expect(done()).toEqual([]);
  });

  test('sort_table with a filter no product holds sorts nothing and hides nothing, and says why', () => {
    expect(() => sortTable.execute({ column: 'price', descending: true, filter: 'price' }, context)).toThrow(
      'No product holds "price", so nothing was sorted. The products are: Kettle, Teapot, Grinder, Mug. Leave filter out to sort them all.',
    );
    expect(shown()).toEqual(['Kettle', 'Teapot', 'Grinder', 'Mug']);
    expect(sortTable.execute({ column: 'price', filter: 'tea' }, context)).toEqual({ order: ['Teapot'] });
    expect(sortTable.execute({ column: 'price' }, context)).toEqual({ order: ['Mug', 'Teapot', 'Kettle', 'Grinder'] });
  });

  test('sort_table finds a product by the plural a visitor types ("just mugs", "only kettles")', () => {
    expect(sortTable.execute({ column: 'name', filter: 'mugs' }, context)).toEqual({ order: ['Mug'] });
    expect(sortTable.execute({ column: 'name', filter: 'Kettles' }, context)).toEqual({ order: ['Kettle'] });
    expect(shown()).toEqual(['Kettle']);
  });
});
