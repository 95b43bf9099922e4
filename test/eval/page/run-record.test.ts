// What the page suite reads of a run's events: each call with its outcome, the model's words, the tokens of its
// steps, and what the decision layer decided and replaced.
import { expect, test } from 'vitest';
import { recordOfRun } from '../../../eval/page/run-record';
import type { AgentEvent } from '../../../src/index';
import { typed, type NewEvent } from '../../../src/session/event';

let seq = 0;
const event = (over: Partial<AgentEvent>): AgentEvent =>
  typed({
    id: `e${++seq}`,
    sessionId: 's',
    invocationId: 'i',
    seq,
    author: 'assistant',
    timestamp: 0,
    ...over,
  } as NewEvent & { seq: number });
const call = (id: string, name: string, args: unknown) => ({ functionCall: { id, name, args } });
const answer = (id: string, name: string, error?: string, code?: string) => ({
  functionResponse: { id, name, response: error ? null : { ok: true }, ...(error && { error, code }) },
});

test('calls with their outcomes, every step’s words, tokens summed, decisions and replaced claims kept', () => {
  const record = recordOfRun([
    event({ author: 'user', content: { role: 'user', parts: [{ text: 'clear it and add milk twice' }] } }),
    event({
      content: {
        role: 'model',
        parts: [
          { text: 'On it.' },
          call('c1', 'add_todo', { text: 'milk' }),
          call('c2', 'add_todo', { text: 'milk' }),
          call('c3', 'clear_todos', {}),
          call('c4', 'complete_todo', { text: 'bread' }),
          call('c5', 'add_todo', { text: 'milk, eggs' }),
        ],
      },
      usage: { promptTokens: 100, completionTokens: 20 },
      decision: { held: 'call', by: 'asked', tools: ['add_todo'] },
    }),
    event({ author: 'user', actions: { approval: { callId: 'c3', granted: false } } }),
    event({
      content: {
        role: 'tool',
        parts: [
          answer('c1', 'add_todo'),
          answer('c2', 'add_todo', 'Not run: already called', 'repeated-call'),
          answer('c3', 'clear_todos', 'The user rejected this call.', 'tool-rejected'),
          answer('c4', 'complete_todo', 'complete_todo failed: No to-do matches', 'tool-failed'),
          answer('c5', 'add_todo', 'Not run: "milk, eggs" is 2 items in one add_todo call', 'several-in-one'),
        ],
      },
    }),
    event({ partial: true, content: { role: 'model', parts: [{ text: 'Nothing' }] } }),
    event({
      content: { role: 'model', parts: [{ text: 'Nothing was done: no tool ran for this request.' }] },
      usage: { promptTokens: 30, completionTokens: 9, cachedPromptTokens: 24 },
      unperformedClaims: [{ sentence: 'I cleared it.', tools: ['clear_todos'] }],
      endReason: 'answer',
    }),
  ]);
  expect(record.calls.map((c) => [c.name, c.outcome, c.code])).toEqual([
    ['add_todo', 'ran', undefined],
    ['add_todo', 'refused', 'repeated-call'],
    ['clear_todos', 'not-approved', 'tool-rejected'],
    ['complete_todo', 'failed', 'tool-failed'],
    // The decision layer's refusals ran nothing.
    ['add_todo', 'refused', 'several-in-one'],
  ]);
  expect(record.reply).toBe('On it.\nNothing was done: no tool ran for this request.');
  // The second step found 24 of its 30 tokens in the cache: 106 read from scratch.
  expect(record).toMatchObject({ promptTokens: 130, prefilledTokens: 106, completionTokens: 29, steps: 2 });
  expect(record.decisions).toEqual([{ held: 'call', by: 'asked', tools: ['add_todo'] }]);
  expect(record.replacedClaims).toEqual(['I cleared it.']);
});

test('a call the run ended before answering is counted as not run', () => {
  const record = recordOfRun([
    event({
      content: { role: 'model', parts: [call('c1', 'sort_table', { column: 'price' })] },
      endReason: 'max-steps',
    }),
  ]);
  expect(record.calls).toEqual([
    { name: 'sort_table', args: { column: 'price' }, outcome: 'refused', error: 'no answer: the run ended first' },
  ]);
});
