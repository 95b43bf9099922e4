// What a run did, read from its events alone: each way a call ends, by the code its answer carries.
import { describe, expect, test } from 'vitest';
import { typed, type AgentEvent, type EventFields, type FunctionResponse } from '../../src/session/event';
import { runCalls } from '../../src/session/run-calls';

let seq = 0;
const event = (fields: Partial<EventFields>): AgentEvent =>
  typed({ id: `e${++seq}`, sessionId: 's', invocationId: 'i', seq, author: 'agent', timestamp: seq, ...fields });
const made = (...names: string[]) =>
  event({
    content: { role: 'model', parts: names.map((name, i) => ({ functionCall: { id: `c${i}`, name, args: { i } } })) },
  });
const answered = (...responses: Omit<FunctionResponse, 'name'>[]) =>
  event({
    content: {
      role: 'tool',
      parts: responses.map((response) => ({ functionResponse: { name: 'tool', ...response } })),
    },
  });

describe('runCalls', () => {
  test('each answer’s code says what became of its call', () => {
    const codes = [
      undefined,
      'tool-failed',
      'tool-timeout',
      'invalid-arguments',
      'unknown-tool',
      'unreadable-call',
      'ungrounded-value',
      'several-in-one',
      'order-not-asked',
      'beyond-request',
      'repeated-call',
      'max-tool-calls',
      'tool-not-allowed',
      'tool-rejected',
      'aborted',
    ];
    const names = codes.map((_code, i) => `tool${i}`);
    const calls = runCalls([
      made(...names),
      answered(
        ...codes.map((code, i) =>
          code === undefined
            ? { id: `c${i}`, response: { ok: true } }
            : { id: `c${i}`, response: null, error: `no: ${code}`, code },
        ),
      ),
    ]);
    expect(calls.map(({ outcome, refusedBy }) => (refusedBy ? `${outcome} by ${refusedBy}` : outcome))).toEqual([
      'ran',
      'failed',
      'failed',
      'refused by validation',
      'refused by validation',
      'refused by validation',
      'refused by validation',
      'refused by validation',
      'refused by validation',
      'refused by validation',
      'refused by rule',
      'refused by rule',
      'refused by rule',
      'not-approved',
      'stopped',
    ]);
    expect(calls[0]).toMatchObject({ id: 'c0', name: 'tool0', args: { i: 0 }, result: { ok: true } });
    expect(calls[1]!.error).toEqual({ code: 'tool-failed', message: 'no: tool-failed' });
  });

  test('a call a reload cut off is stopped; a late answer changes nothing; one still waiting says on what', () => {
    const calls = runCalls([
      made('a', 'b', 'c'),
      answered({ id: 'c0', response: null, error: 'interrupted' }),
      event({
        actions: { requestApproval: [{ callId: 'c1', name: 'b', args: { i: 1 } }] },
        endReason: 'awaiting-approval',
      }),
      event({ longRunningToolIds: ['c2'] }),
      event({
        late: true,
        content: { role: 'tool', parts: [{ functionResponse: { id: 'c0', name: 'a', response: 'late' } }] },
      }),
    ]);
    expect(calls.map((call) => call.outcome)).toEqual(['stopped', 'awaiting-approval', 'long-running']);
  });

  test('a decision’s run names the earlier call it answers with the arguments its request showed', () => {
    const calls = runCalls(
      [
        event({ author: 'user', actions: { approval: { callId: 'old', granted: true } } }),
        event({
          content: {
            role: 'tool',
            parts: [{ functionResponse: { id: 'old', name: 'clear_todos', response: { cleared: 3 } } }],
          },
        }),
      ],
      [{ callId: 'old', name: 'clear_todos', args: { all: true } }],
    );
    expect(calls).toEqual([
      { id: 'old', name: 'clear_todos', args: { all: true }, outcome: 'ran', result: { cleared: 3 } },
    ]);
  });
});
