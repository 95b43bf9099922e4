// The scripted tour: what the agent "says" when no model runs. Every step is a real
// round trip through the worker, the tools and IndexedDB; only the words are fixed.
import type { ScriptedTurn } from '../src/index';

export const tourPrompts = [
  'Remember to buy milk and to call Ana',
  'Write a note about tomorrow’s meeting',
  'Sort the products by price, most expensive first',
  'Fill the contact form for Ana',
  'Which to-dos are open?',
  'Clear all my to-dos',
];

export const tourTurns: ScriptedTurn[] = [
  {
    toolCalls: [
      { name: 'add_todo', args: { text: 'Buy milk' } },
      { name: 'add_todo', args: { text: 'Call Ana' } },
    ],
  },
  { text: 'I added “Buy milk” and “Call Ana” to your list.' },
  {
    toolCalls: [
      {
        name: 'add_note',
        args: { title: 'Meeting, tomorrow 10:00', body: 'Agenda: budget, launch date, who brings coffee.' },
      },
    ],
  },
  { text: 'Your note is on the page.' },
  { toolCalls: [{ name: 'sort_table', args: { column: 'price', descending: true } }] },
  { text: 'Sorted by price, highest first.' },
  {
    toolCalls: [
      {
        name: 'fill_form',
        args: { name: 'Ana Lima', email: 'ana@example.org', message: 'Hi Ana, shall we meet tomorrow at 10?' },
      },
    ],
  },
  { text: 'The form is filled in; check it and send it yourself.' },
  // A turn written as a small local model would write it: parsed by the same tool-call protocol.
  { raw: 'Let me look.\n<tool_call>{"name": "list_todos", "arguments": {}}</tool_call>' },
  { text: 'Open: “Buy milk” and “Call Ana”.' },
  { toolCalls: [{ name: 'clear_todos', args: {} }] },
  { text: 'Done: the list is empty.' },
  { text: 'That was the whole tour. With WebGPU, pick a model above to talk to a real one.' },
];
