import { describe, expect, test } from 'vitest';
import { toolsWhoseResultsHold } from '../../../src/flow/decisions/result-words';
import { pageTools } from './page-tools';
import { answered } from './session-events';

const sorted = answered({ id: 'c1', name: 'sort_table', response: { order: ['Mug', 'Teapot', 'Kettle'] } });
const listed = answered({ id: 'c2', name: 'list_todos', response: [{ id: 't1', text: 'milk', done: false }] });

describe('the tools whose results hold a thing the request names', () => {
  test("a row a sort returned points to the sort, whatever the request's verb", () => {
    expect(toolsWhoseResultsHold('only show me the teapot', pageTools, [sorted])).toEqual(['sort_table']);
    expect(toolsWhoseResultsHold('just the mugs please', pageTools, [sorted, listed])).toEqual(['sort_table']);
  });

  test('nothing a result held, a failed call, or a count: no tool', () => {
    expect(toolsWhoseResultsHold('only show me the toaster', pageTools, [sorted])).toEqual([]);
    const failed = answered({
      id: 'c3',
      name: 'sort_table',
      response: null,
      error: 'No product holds "teapot"',
      code: 'tool-failed',
    });
    expect(toolsWhoseResultsHold('only show me the teapot', pageTools, [failed])).toEqual([]);
    const counted = answered({ id: 'c4', name: 'add_note', response: { notes: 2 } });
    expect(toolsWhoseResultsHold('give me 2 of those', pageTools, [counted])).toEqual([]);
  });

  test('a tool that only reads is pointed to by a question, never by a request for a change', () => {
    expect(toolsWhoseResultsHold('is the milk still there?', pageTools, [listed])).toEqual(['list_todos']);
    expect(toolsWhoseResultsHold('actually, make that oat milk', pageTools, [listed])).toEqual([]);
  });
});
