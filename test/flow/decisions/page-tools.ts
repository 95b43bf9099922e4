/** The demo's page tools as the worker knows them (declarations), for the decision layer's unit tests. */
import type { ToolDeclaration } from '../../../src/tools/declaration';

const tool = (
  name: string,
  description: string,
  properties: Record<string, unknown> = {},
  annotations: ToolDeclaration['annotations'] = {},
  whenToUse?: string,
): ToolDeclaration => ({
  name,
  description,
  ...(whenToUse && { whenToUse }),
  parameters: { type: 'object', properties, required: Object.keys(properties) },
  annotations,
  needsApproval: false,
  returnDirect: false,
  longRunning: false,
  timeoutMs: 1000,
  source: 'page',
});

export const pageTools: ToolDeclaration[] = [
  tool(
    'add_todo',
    'Add an item to the to-do list on this page.',
    { text: { type: 'string' } },
    {},
    'When the user asks to remember a task.',
  ),
  tool(
    'complete_todo',
    'Mark the to-do whose text matches as done.',
    { text: { type: 'string' } },
    { idempotent: true },
  ),
  tool('list_todos', 'Read the to-do list on this page.', {}, { readOnly: true }),
  tool('clear_todos', 'Delete every item of the to-do list.', {}, { destructive: true }),
  tool('add_note', 'Write a note on this page.', { title: { type: 'string' }, body: { type: 'string' } }),
  tool('sort_table', 'Sort the products table by a column, and optionally keep only rows whose name contains a text.', {
    column: { type: 'string', enum: ['name', 'price', 'stock'] },
  }),
  tool('fill_form', 'Fill the contact form on this page (it is not sent; the person reviews and sends it).', {
    name: { type: 'string' },
    email: { type: 'string', format: 'email' },
    message: { type: 'string' },
  }),
];
