import { describe, expect, test } from 'vitest';
import { afterTool } from '../../../src/flow/call-processors/after-tool';
import { runTool } from '../../../src/flow/call-processors/run-tool';
import { call, declaration, invocation, turn } from './fixture';

describe('after-tool: the page’s callback sees what a tool did and may replace its result', () => {
  test('it sees the arguments and the result, or the error, and its value replaces the result', async () => {
    const { inv, hops } = await invocation([declaration('wipe', { returnDirect: true })], {
      run: (callId) =>
        callId === 'ok'
          ? { ok: true, result: { content: 'secret: 42', artifact: 'kept?' }, ms: 1 }
          : { ok: false, error: { code: 'tool-failed', message: 'broke' }, ms: 1 },
      afterTool: (c) => (c.error ? undefined : 'redacted'),
    });
    const t = turn(inv, [
      { ...call('wipe', { scope: 'one' }), id: 'ok' },
      { ...call('wipe', { scope: 'all' }), id: 'bad' },
    ]);
    for (const c of t.calls) {
      await runTool(inv, t, c);
      await afterTool(inv, t, c);
    }
    expect(hops.filter((h) => h.hop === 'afterTool')).toEqual([
      { hop: 'afterTool', call: { callId: 'ok', name: 'wipe', args: { scope: 'one' }, result: 'secret: 42' } },
      {
        hop: 'afterTool',
        call: { callId: 'bad', name: 'wipe', args: { scope: 'all' }, result: undefined, error: 'broke' },
      },
    ]);
    expect(t.calls[0]!.response).toEqual({
      response: { id: 'ok', name: 'wipe', response: 'redacted' },
      ms: 1,
      final: true,
      longRunning: false,
    });
    expect(t.calls[1]!.response?.response.error).toBe('broke');
  });

  test('calls the page did not run (refused, answered by beforeTool, built in) are not shown to it', async () => {
    const { inv, hops } = await invocation([declaration('wipe')], { afterTool: () => 'replaced' });
    const t = turn(inv, [call('wipe', { scope: 'one' })]);
    t.calls[0]!.response = { response: { id: 'x', name: 'wipe', response: null, error: 'refused' }, ms: 0 };
    await afterTool(inv, t, t.calls[0]!);
    expect(hops).toEqual([]);
    expect(t.calls[0]!.response.response.error).toBe('refused');
  });
});
