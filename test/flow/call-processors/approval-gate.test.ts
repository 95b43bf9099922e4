import { describe, expect, test } from 'vitest';
import { approvalGate } from '../../../src/flow/call-processors/approval-gate';
import { call, declaration, invocation, turn } from './fixture';

const wipe = declaration('wipe', { needsApproval: true, annotations: { destructive: true } });
const maybe = declaration('maybe', { needsApproval: 'dynamic' });
const look = declaration('look', { annotations: { readOnly: true } });

describe('approval gate: the calls of a turn that may need a person reach the page in one hop', () => {
  test('every call that may need approval goes in one hop; calls whose rule is false never go', async () => {
    const { inv, hops } = await invocation([wipe, maybe, look], {
      prepare: (c) => ({ ok: true, args: c.args, needsApproval: false }),
    });
    const t = turn(inv, [
      call('wipe', { scope: 'all' }),
      call('look', { scope: 'one' }),
      call('maybe', { scope: 'one' }),
    ]);
    expect(await approvalGate(inv, t)).toBeUndefined();
    expect(hops).toEqual([
      {
        hop: 'prepareCalls',
        calls: [
          { callId: t.calls[0]!.call.id, name: 'wipe', args: { scope: 'all' } },
          { callId: t.calls[2]!.call.id, name: 'maybe', args: { scope: 'one' } },
        ],
      },
    ]);
  });

  test('a call answered before the gate (invalid arguments) is never sent to the page', async () => {
    const { inv, hops } = await invocation([wipe]);
    const t = turn(inv, [call('wipe', { scope: 'nope' })]);
    t.calls[0]!.response = { response: { id: 'x', name: 'wipe', response: null, error: 'bad' }, ms: 0 };
    await approvalGate(inv, t);
    expect(hops).toEqual([]);
  });

  test('without onApproval the turn pauses on one request holding the parsed arguments of every call that needs a person', async () => {
    const { inv, events } = await invocation([wipe, maybe], {
      prepare: (c) => ({ ok: true, args: { ...(c.args as object), parsed: true }, needsApproval: true }),
    });
    const t = turn(inv, [call('wipe', { scope: 'all' }), call('maybe', { scope: 'one' })]);
    expect(await approvalGate(inv, t)).toBe('paused');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      endReason: 'awaiting-approval',
      actions: {
        requestApproval: [
          { callId: t.calls[0]!.call.id, name: 'wipe', args: { scope: 'all', parsed: true } },
          { callId: t.calls[1]!.call.id, name: 'maybe', args: { scope: 'one', parsed: true } },
        ],
      },
    });
  });

  test('with onApproval each decision is recorded; a no answers the call tool-rejected, a yes keeps the arguments the person saw', async () => {
    const { inv, events } = await invocation([wipe], {
      prepare: (c) => ({
        ok: true,
        args: { ...(c.args as object), seen: true },
        needsApproval: true,
        granted: (c.args as { scope: string }).scope === 'one',
      }),
    });
    const t = turn(inv, [call('wipe', { scope: 'one' }), call('wipe', { scope: 'all' })]);
    expect(await approvalGate(inv, t)).toBeUndefined();
    expect(events.map((e) => e.actions?.approval)).toEqual([
      { callId: t.calls[0]!.call.id, granted: true },
      { callId: t.calls[1]!.call.id, granted: false },
    ]);
    expect(t.calls[0]!.decision).toEqual({ granted: true, args: { scope: 'one', seen: true } });
    expect(t.calls[0]!.response).toBeUndefined();
    expect(t.calls[1]!.response?.response).toMatchObject({ code: 'tool-rejected' });
    expect(t.calls[1]!.response?.response.error).toMatch(/rejected this call/);
  });

  test('arguments the tool’s own schema refuses are answered with the page’s error, and nobody is asked', async () => {
    const { inv, events } = await invocation([wipe], {
      prepare: () => ({ ok: false, error: { code: 'invalid-arguments', message: 'scope: too wide' } }),
    });
    const t = turn(inv, [call('wipe', { scope: 'all' })]);
    expect(await approvalGate(inv, t)).toBeUndefined();
    expect(t.calls[0]!.response?.response).toMatchObject({ error: 'scope: too wide', code: 'invalid-arguments' });
    expect(events).toEqual([]);
  });

  test('decisions recorded before a resume apply without asking the page again', async () => {
    const { inv, hops } = await invocation([wipe]);
    const [yes, no] = [call('wipe', { scope: 'one' }), call('wipe', { scope: 'all' })];
    const t = turn(inv, [yes, no], {
      decided: new Map([
        [yes.id, { granted: true, args: { scope: 'one' } }],
        [no.id, { granted: false, reason: 'too much' }],
      ]),
    });
    await approvalGate(inv, t);
    expect(hops).toEqual([]);
    expect(t.calls[0]!.response).toBeUndefined();
    expect(t.calls[1]!.response?.response.error).toMatch(/rejected this call: too much/);
  });
});
