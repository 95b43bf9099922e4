import { describe, expect, test } from 'vitest';
import { mergeResponses, recordTurn } from '../../../src/flow/call-processors/merge-responses';
import type { CallResponse } from '../../../src/flow/types';
import { call, declaration, invocation, turn } from './fixture';

const timing = { startedAt: 1, ms: 2 };
const ok = (id: string, extra: Partial<CallResponse> = {}): CallResponse => ({
  response: { id, name: 't', response: `r-${id}` },
  ms: 1,
  ...extra,
});

describe('merge: the responses of one turn are one event', () => {
  test('parallel calls are answered by one event with their state deltas merged and artifacts by call id', () => {
    const merged = mergeResponses(
      [ok('a', { stateDelta: { x: 1 }, artifact: 'A' }), ok('b', { stateDelta: { y: 2 } })],
      'assistant',
      timing,
    );
    expect(merged.endReason).toBeUndefined();
    expect(merged.event).toMatchObject({
      content: { role: 'tool', parts: [{ functionResponse: { id: 'a' } }, { functionResponse: { id: 'b' } }] },
      actions: { stateDelta: { x: 1, y: 2 } },
      artifacts: { a: 'A' },
      toolTimings: { a: 1, b: 1 },
    });
  });

  test('a fatal tool error ends the turn with an error; long-running calls outrank a return-direct answer', () => {
    const fatal = mergeResponses(
      [ok('a', { fatal: { code: 'tool-failed', message: 'page left' } })],
      'assistant',
      timing,
    );
    expect(fatal.endReason).toBe('error');
    expect(fatal.event?.error?.message).toMatch(/A tool stopped the run: page left/);
    const waiting = mergeResponses([ok('a', { final: true }), ok('b', { longRunning: true })], 'assistant', timing);
    expect(waiting).toMatchObject({ endReason: 'long-running', longRunning: ['b'] });
    expect(waiting.event?.content?.parts).toHaveLength(1);
  });

  test('recording a turn stores one tool event, then one naming the calls whose response comes later', async () => {
    const { inv, events } = await invocation([declaration('order', { longRunning: true }), declaration('look')]);
    const t = turn(inv, [call('look', { scope: 'one' }), call('order', { scope: 'all' })]);
    t.calls[0]!.response = ok(t.calls[0]!.call.id);
    t.calls[1]!.response = ok(t.calls[1]!.call.id, { longRunning: true });
    expect(await recordTurn(inv, t)).toEqual({ kind: 'end', reason: 'long-running' });
    expect(events.map((e) => [e.content?.role, e.longRunningToolIds, e.endReason])).toEqual([
      ['tool', undefined, undefined],
      [undefined, [t.calls[1]!.call.id], 'long-running'],
    ]);
    expect(await inv.store.events(inv.sessionId)).toHaveLength(2);
  });
});
