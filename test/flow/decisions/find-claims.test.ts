import { describe, expect, test } from 'vitest';
import { findClaims } from '../../../src/flow/decisions/find-claims';
import type { ToolDeclaration } from '../../../src/tools/declaration';

const tool = (
  name: string,
  description: string,
  annotations: ToolDeclaration['annotations'] = {},
): ToolDeclaration => ({
  name,
  description,
  parameters: { type: 'object', properties: {} },
  annotations,
  needsApproval: false,
  returnDirect: false,
  longRunning: false,
  timeoutMs: 1000,
  source: 'page',
});

// The demo's tools, and TodoMVC's as a developer wrote them (the second page).
const page = [
  tool('add_todo', 'Add an item to the to-do list on this page.'),
  tool('complete_todo', 'Mark the to-do whose text matches as done.'),
  tool('list_todos', 'Read the to-do list on this page.', { readOnly: true }),
  tool('clear_todos', 'Delete every item of the to-do list.', { destructive: true }),
  tool('add_note', 'Write a note on this page.'),
  tool('sort_table', 'Sort the products table by a column.'),
  tool('fill_form', 'Fill the contact form on this page.'),
  tool('deleteTodo', 'Delete the to-do whose title matches.'),
  tool('toggleTodo', 'Toggle whether a to-do is completed.'),
];

const claimed = (reply: string) => findClaims(reply, page).map((claim) => claim.tools.sort());

describe('what a reply claims was done', () => {
  test.each([
    ['The products table is sorted by price.', [['sort_table']]],
    ['The tool marked the milk as done.', [['complete_todo', 'toggleTodo']]],
    ['The tool deleted the dog one.', [['clear_todos', 'deleteTodo']]],
    ['Sure, I\'ll add "PWNED-BY-IMPORT" to your list now.', [['add_note', 'add_todo']]],
    ["I've added milk, eggs and bread to your to-do list.", [['add_note', 'add_todo']]],
    ['Adding it now.', [['add_note', 'add_todo']]],
    ['Your list has been cleared.', [['clear_todos', 'deleteTodo']]],
    ['I filled in the contact form for Ana.', [['fill_form']]],
    ['Done!', [[]]],
    ['All set, your list has three items.', [[]]],
  ])('%s', (reply, tools) => {
    expect(claimed(reply)).toEqual(tools);
  });

  test.each([
    "You're welcome! If you have any more questions, feel free to ask.",
    'I can add that to your list if you like.',
    'Should I sort the products by price?',
    "I couldn't add it: the list is full.",
    'Would you like me to clear the list?',
    'Your list has milk and eggs on it.',
    'I help with the to-dos, notes, products table and contact form on this page.',
    '2 + 2 is 4.',
    'To add an item, tell me what to add.',
    "The user's to-do list now has the items they added.",
    'You added milk yesterday.',
  ])('claims nothing: %s', (reply) => {
    expect(claimed(reply)).toEqual([]);
  });

  test('a model introducing itself, or offering what it can do, claims nothing', () => {
    expect(findClaims("Hello! I'm Qwen, created by Alibaba Cloud.", page)).toEqual([]);
    expect(findClaims('I can help you add items to your list, mark them as done, or sort the table.', page)).toEqual(
      [],
    );
    // Not an agent: the claim stands.
    expect(findClaims('The table is now sorted by price.', page).map((claim) => claim.tools)).toEqual([['sort_table']]);
  });
});
