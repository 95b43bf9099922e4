import { describe, expect, test } from 'vitest';
import { argumentWords, toolWords, valueWords } from '../../../src/flow/decisions/value-words';
import { pageTools } from './page-tools';

const tools = toolWords(pageTools);
const left = (request: string, ...calls: unknown[]) => {
  const taken = new Set(calls.flatMap((args) => [...argumentWords(args)]));
  return [...valueWords(request, tools)].filter((word) => !taken.has(word));
};

describe('what a request asks that its calls have not taken', () => {
  test('items of a list, one call at a time', () => {
    expect(left('put milk, eggs and bread on my list')).toEqual(['milk', 'egg', 'bread']);
    expect(left('put milk, eggs and bread on my list', { text: 'Milk' })).toEqual(['egg', 'bread']);
    expect(left('put milk, eggs and bread on my list', { text: 'milk' }, { text: 'eggs' }, { text: 'bread' })).toEqual(
      [],
    );
  });

  test('numbers by their value, whatever their spelling; the words of the tool describe it, they are not values', () => {
    const area = {
      ...pageTools[0]!,
      name: 'calculate_triangle_area',
      description: 'Calculate the area of a triangle.',
    };
    const own = toolWords([area, { ...area, parameters: { type: 'object', properties: { base: {}, height: {} } } }]);
    const request = 'Calculate the area of triangles with base 10 height 5, and base 15 height 7.5';
    const rest = (...calls: unknown[]) => {
      const taken = new Set(calls.flatMap((args) => [...argumentWords(args)]));
      return [...valueWords(request, own)].filter((word) => !taken.has(word));
    };
    expect(rest({ base: 10, height: 5 })).toEqual(['15', '7.5']);
    expect(rest({ base: 10, height: 5 }, { base: 15.0, height: 7.5 })).toEqual([]);
  });

  test('a request the call took whole leaves nothing, the words of the tools and of any sentence aside', () => {
    // "remember" is how a visitor asks add_todo: a word of the tool (action-verbs.ts).
    expect(left('can you remember that I need to buy milk', { text: 'Buy milk' })).toEqual([]);
    expect(left('please clear the whole list', {})).toEqual([]);
    expect(left('thanks!')).toEqual([]);
  });
});
