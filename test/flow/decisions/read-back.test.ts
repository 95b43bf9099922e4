import { describe, expect, test } from 'vitest';
import { readersAsked, readersFor } from '../../../src/flow/decisions/read-back';
import { pageTools } from './page-tools';
import { calledAddTodo } from './session-events';

describe('a question that refers back to what the tools touched', () => {
  test('is offered the tools that only read, once a tool has run', () => {
    for (const request of ["what's left on it?", 'is it empty now?', 'Are they all there?', 'what’s in it'])
      expect(readersFor(request, pageTools, [calledAddTodo]), request).toEqual(['list_todos']);
  });

  test('before any tool ran, it refers to nothing the page holds', () => {
    expect(readersFor("what's left on it?", pageTools, [])).toEqual([]);
  });

  test('a question that refers to nothing, one about the past, and a request that asks nothing are not', () => {
    for (const request of [
      "what's 2+2",
      'what is the capital of France?',
      "which one's the cheapest?",
      'did it work?',
      'put it on my list',
    ])
      expect(readersFor(request, pageTools, [calledAddTodo]), request).toEqual([]);
  });

  test('a page whose tools all change something has none to offer', () => {
    const changing = pageTools.filter((tool) => !tool.annotations.readOnly);
    expect(readersFor("what's left on it?", changing, [calledAddTodo])).toEqual([]);
  });
});

describe('a question that names what a tool that reads holds', () => {
  test('asks for that tool once the session’s tools ran', () => {
    for (const request of ["what's still on the list?", 'anything left on my list?', 'what is on my to-do list now?'])
      expect(readersAsked(request, pageTools, [calledAddTodo]), request).toEqual(['list_todos']);
  });

  test('not before a tool ran, not about the past, not a request, and not one that names nothing it holds', () => {
    expect(readersAsked("what's still on the list?", pageTools, [])).toEqual([]);
    for (const request of [
      'did you add it to the list?',
      'put eggs on the list',
      'how many things are left?',
      'what is the capital of France?',
      'what page is this?',
    ])
      expect(readersAsked(request, pageTools, [calledAddTodo]), request).toEqual([]);
  });
});
