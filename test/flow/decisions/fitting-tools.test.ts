import { describe, expect, test } from 'vitest';
import { fittingTools, toolsTakingValues } from '../../../src/flow/decisions/fitting-tools';
import { pageTools } from './page-tools';

const names = pageTools.map((tool) => tool.name);
const only = (...wanted: string[]) => pageTools.filter((tool) => wanted.includes(tool.name));

describe('the tools a request’s words point to', () => {
  test('a value in a parameter’s format points to the tool that takes it: an email to the contact form', () => {
    expect(fittingTools('oops, my email is actually dana@wu.studio', pageTools)).toEqual(['fill_form']);
    expect(
      fittingTools(
        "I'd like to get in touch. My name is Dana Wu, email dana.wu@example.com, and I want to ask a question.",
        pageTools,
      ),
    ).toEqual(['fill_form']);
  });

  test('the name of a parameter that takes a format points nowhere by itself: "email the landlord" asks for no form', () => {
    // Nothing points anywhere, so every tool stays (before, "email" alone narrowed them to fill_form).
    expect(fittingTools('Remind me to email the landlord', pageTools)).toEqual(names);
    expect(fittingTools('emailed the landlord', pageTools)).toEqual(names);
    // A word the tool says elsewhere still points to it: "the contact form".
    expect(fittingTools('email the shop through the contact form', pageTools)).toEqual(['fill_form']);
  });

  test('among the tools a verb names, the one the request’s things belong to: a list for a to-do, a note for a note', () => {
    expect(fittingTools('Put milk, eggs and bread on my list', only('add_todo', 'add_note'))).toEqual(['add_todo']);
    expect(fittingTools('add a note: the meeting moved to Thursday', only('add_todo', 'add_note'))).toEqual([
      'add_note',
    ]);
  });

  test('a request of several parts keeps the tool of each part', () => {
    expect(fittingTools('sort the products by price, and fill the contact form for Ana', pageTools)).toEqual([
      'sort_table',
      'fill_form',
    ]);
  });

  test('a request whose words point nowhere keeps every tool, and so does a page of one tool', () => {
    expect(fittingTools('oh and pay rent', pageTools)).toEqual(names);
    expect(fittingTools('actually, make that oat milk', pageTools)).toEqual(names);
    expect(fittingTools('email dana@wu.studio', only('add_todo'))).toEqual(['add_todo']);
  });

  test('words that say nothing of a tool (ask, show, keep) point nowhere', () => {
    expect(fittingTools('can you show me what you keep, I ask you', pageTools)).toEqual(names);
  });
});

describe('the tools that take a value of the request by its format', () => {
  test('an email address goes to the tool whose parameter takes format email, whatever the punctuation around it', () => {
    expect(toolsTakingValues('oops, my email is actually dana@wu.studio.', pageTools)).toEqual(['fill_form']);
    expect(toolsTakingValues('reach me at (lee@park.dev), thanks', pageTools)).toEqual(['fill_form']);
  });

  test('no value of a format any tool takes: none', () => {
    expect(toolsTakingValues('my name is Dana, at the shop: come by', pageTools)).toEqual([]);
    expect(toolsTakingValues('dana at wu dot studio', pageTools)).toEqual([]);
  });
});
