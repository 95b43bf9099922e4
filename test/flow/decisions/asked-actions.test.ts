import { describe, expect, test } from 'vitest';
import { askedActions } from '../../../src/flow/decisions/asked-actions';
import { pageTools } from './page-tools';

const asked = (request: string) => askedActions(request, pageTools).sort();

describe('the tools a request asks for by naming their action', () => {
  test.each([
    ['sort the products so the cheapest is first', ['sort_table']],
    ['Sort the products by price, most expensive first', ['sort_table']],
    ['please clear the whole list', ['clear_todos']],
    // Both tools add something: the step is held to a call of either, and the model picks.
    ['can you remember that I need to buy milk', ['add_note', 'add_todo']],
    ['put milk, eggs and bread on my list', ['add_note', 'add_todo']],
    ['remind me to call the plumber', ['add_note', 'add_todo']],
    ['I got the milk, tick it off', ['complete_todo']],
    ['Mark the dry cleaning as done', ['complete_todo']],
    ['write a note: dentist on friday at 10', ['add_note']],
    ['Fill the contact form for Ana', ['fill_form']],
    ['hey, could you delete everything on my list?', ['clear_todos']],
    // A thing said to be done is marked done.
    ["garlic's done", ['complete_todo']],
    ['the dry cleaning is done', ['complete_todo']],
    ['ok, and the report is finished too', ['complete_todo']],
  ])('%s', (request, tools) => {
    expect(asked(request)).toEqual(tools);
  });

  test.each([
    'hi there',
    'thanks!',
    'did you sort it?',
    "what's on my list now?",
    "don't add anything yet",
    'oh and eggs and bread too',
    'what can you do?',
    'I wrote that note yesterday',
    "that's done, thanks",
    'is the garlic done?',
    "I'm done for today",
    "the garlic isn't done yet",
  ])('asks for none: %s', (request) => {
    expect(asked(request)).toEqual([]);
  });
});
