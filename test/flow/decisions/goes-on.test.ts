// A request that goes on from the one before ("and pack the kitchen") is held to the tools that one ran.
import { expect, test } from 'vitest';
import { toolsItGoesOnWith } from '../../../src/flow/decisions/goes-on';
import type { AgentEvent } from '../../../src/session/event';
import { pageTools } from './page-tools';
import { answered } from './session-events';

/** An earlier run (its own invocation) whose tools answered these. */
const ran = (invocation: string, ...names: string[]): AgentEvent => ({
  ...answered(...names.map((name, i) => ({ id: `c${i}`, name, response: { ok: true } }))),
  invocationId: invocation,
});
const goesOn = (request: string, history: AgentEvent[]) => toolsItGoesOnWith(request, pageTools, history, 'now');

test('"and …", "oh and …", "also …" after a run of calls: the tools that run ran', () => {
  const history = [ran('first', 'add_todo')];
  for (const request of [
    'and pack the kitchen',
    'oh and pay rent',
    'also call mom and book dentist appt',
    'plus butter',
  ])
    expect(goesOn(request, history), request).toEqual(['add_todo']);
  expect(goesOn('and the rent', [ran('first', 'add_todo', 'add_note')])).toEqual(['add_todo', 'add_note']);
});

test('the last run that acted counts, not an earlier one, nor a read, nor a call that failed', () => {
  expect(goesOn('and by name', [ran('first', 'add_todo'), ran('second', 'sort_table')])).toEqual(['sort_table']);
  expect(goesOn('and the kitchen', [ran('first', 'add_todo'), ran('second', 'list_todos')])).toEqual(['add_todo']);
  const failed: AgentEvent = {
    ...answered({ id: 'c1', name: 'complete_todo', response: null, error: 'No to-do matches.' }),
    invocationId: 'second',
  };
  expect(goesOn('and the kitchen', [ran('first', 'add_todo'), failed])).toEqual(['add_todo']);
});

test('a question, a thanks, a request that does not go on, or a session with no run that acted: nothing held', () => {
  const history = [ran('first', 'add_todo')];
  expect(goesOn("and what's left?", history)).toEqual([]);
  expect(goesOn('and thanks!', history)).toEqual([]);
  expect(goesOn('pack the kitchen', history)).toEqual([]);
  expect(goesOn('sandwiches and pack the kitchen', history)).toEqual([]);
  expect(goesOn('and pack the kitchen', [])).toEqual([]);
  expect(goesOn('and pack the kitchen', [ran('first', 'list_todos')])).toEqual([]);
});
