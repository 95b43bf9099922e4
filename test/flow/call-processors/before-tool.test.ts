import { describe, expect, test } from 'vitest';
import { beforeTool } from '../../../src/flow/call-processors/before-tool';
import { call, declaration, invocation, turn } from './fixture';

const wipe = declaration('wipe');

describe('before-tool: the page’s callback may answer a call or change its arguments', () => {
  test('{ result } answers the call without running the tool', async () => {
    const { inv } = await invocation([wipe], { beforeTool: () => ({ result: { cached: true } }) });
    const t = turn(inv, [call('wipe', { scope: 'one' })]);
    await beforeTool(inv, t, t.calls[0]!);
    expect(t.calls[0]!.response?.response).toMatchObject({ response: { cached: true } });
    expect(t.calls[0]!.ran).toBeUndefined();
  });

  test('{ args } replaces the arguments when they still fit the tool’s schema, and is refused when they do not', async () => {
    const { inv } = await invocation([wipe], {
      beforeTool: (c) => ({ args: { scope: (c.args as { scope: string }).scope === 'one' ? 'all' : 'wrong' } }),
    });
    const t = turn(inv, [call('wipe', { scope: 'one' }), call('wipe', { scope: 'all' })]);
    await beforeTool(inv, t, t.calls[0]!);
    await beforeTool(inv, t, t.calls[1]!);
    expect(t.calls[0]!.args).toEqual({ scope: 'all' });
    expect(t.calls[0]!.response).toBeUndefined();
    expect(t.calls[1]!.response?.response.error).toMatch(/beforeTool gave arguments that do not fit.*scope/);
  });

  test('a value that is not plain JSON ends the run with callback-failed', async () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const { inv } = await invocation([wipe], { beforeTool: () => ({ result: cyclic }) });
    const t = turn(inv, [call('wipe', { scope: 'one' })]);
    await expect(beforeTool(inv, t, t.calls[0]!)).rejects.toMatchObject({ code: 'callback-failed' });
  });

  test('no callback, no hop; a call already answered is not shown to it', async () => {
    const none = await invocation([wipe]);
    const t1 = turn(none.inv, [call('wipe', { scope: 'one' })]);
    await beforeTool(none.inv, t1, t1.calls[0]!);
    expect(none.hops).toEqual([]);

    const some = await invocation([wipe], { beforeTool: () => undefined });
    const t2 = turn(some.inv, [call('wipe', { scope: 'one' })]);
    t2.calls[0]!.response = { response: { id: 'x', name: 'wipe', response: null, error: 'refused' }, ms: 0 };
    await beforeTool(some.inv, t2, t2.calls[0]!);
    expect(some.hops).toEqual([]);
  });
});
