// A statement that a thing an earlier call took was done asks the tool that marks things done.
import { expect, test } from 'vitest';
import { markingToolsFor } from '../../../src/flow/decisions/done-with';
import type { AgentEvent } from '../../../src/session/event';
import { pageTools } from './page-tools';

/** An earlier run that called add_todo with each text. */
const added = (...texts: string[]): AgentEvent[] =>
  texts.map((text, i): AgentEvent => ({
    type: 'model',
    id: `a${i}`,
    sessionId: 's',
    invocationId: 'earlier',
    seq: i,
    author: 'assistant',
    timestamp: i,
    content: { role: 'model', parts: [{ functionCall: { id: `c${i}`, name: 'add_todo', args: { text } } }] },
  }));
const marking = (request: string, history: AgentEvent[]) => markingToolsFor(request, pageTools, history, 'now');

test('a thing a to-do holds, said done in the past: complete_todo', () => {
  const history = added('buy batteries', 'book a van', 'email the landlord', 'return library books');
  for (const said of ['got the batteries', "Van's booked!", 'emailed the landlord', 'I returned the library books'])
    expect(marking(said, history), said).toEqual(['complete_todo']);
});

test('not a thing of an earlier call, not in the past, a question, or not done: nothing', () => {
  const history = added('buy batteries', 'email the landlord');
  expect(marking('I booked a table for two', history)).toEqual([]);
  expect(marking('buy more batteries', history)).toEqual([]);
  expect(marking('did you get the batteries?', history)).toEqual([]);
  expect(marking('I forgot the batteries', history)).toEqual([]);
  expect(marking("haven't emailed the landlord yet", history)).toEqual([]);
  expect(marking("I'm interested in batteries", history)).toEqual([]);
  expect(marking('got the batteries', [])).toEqual([]);
});
