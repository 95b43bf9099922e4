import { describe, expect, test } from 'vitest';
import { onlyTheAction, unasked, unsaid } from '../../../src/flow/decisions/grounded-values';
import { describedWords, valueWords } from '../../../src/flow/decisions/value-words';
import type { ToolDeclaration } from '../../../src/tools/declaration';
import { pageTools } from './page-tools';

const fillForm = pageTools.find((tool) => tool.name === 'fill_form')!;
const addNote = pageTools.find((tool) => tool.name === 'add_note')!;
const request =
  "I'd like to get in touch with the shop. My name is Dana Wu, email dana.wu@example.com, and I want to ask whether the grinder is back in stock.";

/** What the conversation and the tool's own declaration say, as unsaid() reads them. */
const known = (said: string, tool: ToolDeclaration) => [valueWords(said, new Set()), describedWords([tool])];

describe('a text the model wrote that says nothing the person said', () => {
  test("the 0.5B's refusal as a contact form's message is its own words", () => {
    expect(unsaid("I'm sorry, but I can't assist with that.", known(request.toLowerCase(), fillForm))).toBe(true);
  });

  test('a text that takes a word of the request, or of the tool itself, is the visitor’s', () => {
    expect(unsaid('Is the grinder back in stock?', known(request.toLowerCase(), fillForm))).toBe(false);
    expect(unsaid('Team meeting moved, excited to see everyone', known('note: team meeting moved', addNote))).toBe(
      false,
    );
    expect(unsaid('A note for this page', known('hello', addNote))).toBe(false);
  });

  test('a word or two of the model’s own is its to word ("Buy milk", "price")', () => {
    expect(unsaid('Groceries', known('put milk on my list', addNote))).toBe(false);
    expect(unsaid('Buy milk', known('remember milk', addNote))).toBe(false);
  });
});

describe('an optional value no one asked for', () => {
  const sortTable = pageTools.find((tool) => tool.name === 'sort_table')!;
  const said = (text: string) => valueWords(text.toLowerCase(), new Set());
  const own = describedWords([sortTable]);

  test("the 0.5B's filters for a plain sort: a number or a phrase the visitor never said", () => {
    expect(unasked('price < 100', said('Could you sort the products by price, cheapest first please?'), own)).toBe(
      true,
    );
    expect(unasked("name contains 'the second one'", said('sort the table by name z to a'), own)).toBe(true);
  });

  test("a filter of the visitor's words, or of the tool's own, stands; so does a date", () => {
    expect(unasked('teapot', said('only show me the teapot'), own)).toBe(false);
    expect(unasked('name', said('sort by name'), own)).toBe(false);
    expect(unasked('2023-03-10', said('next wednesday'), own)).toBe(false);
  });
});

describe("a needed value that only says the tool's action", () => {
  const completeTodo = pageTools.find((tool) => tool.name === 'complete_todo')!;

  test('"Tick it off." and "Mark as done" name no to-do', () => {
    for (const value of ['Tick it off.', 'Mark as done', 'completed', 'finish it'])
      expect(onlyTheAction(value, completeTodo), value).toBe(true);
  });

  test('a value with a word of the thing, a constant in capitals, or no word at all names something', () => {
    for (const value of ['agenda', 'Tick off the agenda', 'the second one', 'CHECK', '42'])
      expect(onlyTheAction(value, completeTodo), value).toBe(false);
  });
});
