import { describe, expect, test } from 'vitest';
import { AgentError } from '../../../src/errors';
import { runTool } from '../../../src/flow/call-processors/run-tool';
import { ESCALATE_TOOL } from '../../../src/flow/agents';
import { call, declaration, invocation, turn } from './fixture';

describe('run: a page tool runs through the runner, an approved call with the arguments the person saw', () => {
  test('the tool’s result, artifact and state delta become the call’s response; returnDirect makes it final', async () => {
    const { inv, hops } = await invocation([declaration('wipe', { returnDirect: true })], {
      run: () => ({ ok: true, result: { content: 'wiped', artifact: { rows: 3 }, stateDelta: { n: 1 } }, ms: 2 }),
    });
    const t = turn(inv, [call('wipe', { scope: 'one' })]);
    await runTool(inv, t, t.calls[0]!);
    expect(hops).toEqual([{ hop: 'run', callId: t.calls[0]!.call.id, args: { scope: 'one' } }]);
    expect(t.calls[0]!.response).toMatchObject({
      response: { response: 'wiped' },
      artifact: { rows: 3 },
      stateDelta: { n: 1 },
      final: true,
      ms: 2,
    });
    expect(t.calls[0]!.ran).toBe(true);
  });

  test('an approved call carries the approved arguments; a failing tool keeps its error code; a fatal one says so', async () => {
    const { inv, hops } = await invocation([declaration('wipe')], {
      run: (callId) =>
        callId.endsWith('a')
          ? { ok: true, result: { content: 'ok' }, ms: 1 }
          : { ok: false, error: { code: 'tool-failed', message: 'gone', details: { fatal: true } }, ms: 1 },
    });
    const approved = { ...call('wipe', { scope: 'one' }), id: 'c-a' };
    const failing = { ...call('wipe', { scope: 'one' }), id: 'c-b' };
    const t = turn(inv, [approved, failing], {
      decided: new Map([['c-a', { granted: true, args: { scope: 'one' } }]]),
    });
    await runTool(inv, t, t.calls[0]!);
    await runTool(inv, t, t.calls[1]!);
    expect(hops[0]).toMatchObject({ approvedArgs: { scope: 'one' } });
    expect(t.calls[1]!.response).toMatchObject({
      response: { error: 'gone', code: 'tool-failed' },
      fatal: { code: 'tool-failed' },
    });
  });

  test('a call approved without the arguments it was shown never reaches the page', async () => {
    const { inv, hops } = await invocation([declaration('wipe')]);
    const wipe = call('wipe', { scope: 'all' });
    const t = turn(inv, [wipe], { decided: new Map([[wipe.id, { granted: true }]]) });
    await runTool(inv, t, t.calls[0]!);
    expect(hops).toEqual([]);
    expect(t.calls[0]!.response?.response).toMatchObject({ response: null, code: 'invalid-arguments' });
    expect(t.calls[0]!.ran).toBeUndefined();
  });

  test('a runner that throws is a tool failure; a dead worker’s error passes through', async () => {
    const { inv } = await invocation([declaration('wipe')], {
      run: (callId) => {
        throw callId === 'gone' ? new AgentError('worker-crashed', 'dead') : new Error('port closed');
      },
    });
    const t = turn(inv, [call('wipe', { scope: 'one' }), { ...call('wipe', { scope: 'one' }), id: 'gone' }]);
    await runTool(inv, t, t.calls[0]!);
    expect(t.calls[0]!.response?.response).toMatchObject({ code: 'tool-failed', error: 'wipe failed: port closed' });
    await expect(runTool(inv, t, t.calls[1]!)).rejects.toMatchObject({ code: 'worker-crashed' });
  });

  test('the built-in agent tools answer here, without the page', async () => {
    const { inv, hops } = await invocation([]);
    const t = turn(inv, [call(ESCALATE_TOOL, {})]);
    await runTool(inv, t, t.calls[0]!);
    expect(hops).toEqual([]);
    expect(t.calls[0]!.response).toMatchObject({ transferTo: inv.rootAgent, escalate: true });
    expect(t.calls[0]!.ran).toBeUndefined();
  });
});
