import { describe, expect, test } from 'vitest';
import { answerWithReading, plainText, readingsOf } from '../../../src/flow/decisions/what-was-read';
import type { AgentEvent } from '../../../src/index';
import { pageTools } from './page-tools';

const todos = [
  { id: 'tmx1', text: 'flour', done: true },
  { id: 'tmx2', text: 'sugar', done: false },
  { id: 'tmx3', text: 'butter', done: false },
];

const response = (name: string, response: unknown, error?: string) =>
  ({
    id: `e-${name}`,
    invocationId: 'inv',
    content: {
      role: 'tool',
      parts: [{ functionResponse: { id: `c-${name}`, name, response, ...(error && { error }) } }],
    },
  }) as unknown as AgentEvent;

describe('a run that only read answers with what it read', () => {
  test('a result as a line: items in order, ids left out, a true flag by its name', () => {
    expect(plainText(todos)).toBe('flour (done), sugar, butter.');
    expect(plainText([])).toBe('nothing.');
    expect(plainText({ order: ['Mug', 'Teapot'], count: 2 })).toBe('Mug, Teapot, 2.');
    expect(plainText('x'.repeat(500))).toHaveLength(401);
  });

  test('a reply that names something read is kept; one that names nothing of it gives the reading', () => {
    const readings = [{ name: 'list_todos', result: todos }];
    expect(answerWithReading('Sugar and butter are left.', readings)).toBe('Sugar and butter are left.');
    for (const reply of ['The tool successfully retrieved the to-do list.', 'The dentist is done.', ''])
      expect(answerWithReading(reply, readings), reply).toBe('list_todos returned: flour (done), sugar, butter.');
  });

  test('only a run whose every call that ran only read', () => {
    expect(readingsOf([response('list_todos', todos)], pageTools)).toEqual([{ name: 'list_todos', result: todos }]);
    expect(readingsOf([response('list_todos', todos), response('add_todo', { id: 't4' })], pageTools)).toEqual([]);
    expect(readingsOf([response('add_todo', { id: 't4' })], pageTools)).toEqual([]);
    // A call that failed ran nothing: the reading alone counts.
    expect(readingsOf([response('list_todos', todos), response('add_todo', undefined, 'refused')], pageTools)).toEqual([
      { name: 'list_todos', result: todos },
    ]);
    expect(readingsOf([], pageTools)).toEqual([]);
  });
});
