import { describe, expect, test } from 'vitest';
import { validateCalls } from '../../../src/flow/call-processors/validate-call';
import { TRANSFER_TOOL } from '../../../src/flow/agents';
import { call, declaration, invocation, turn } from './fixture';

describe('validate: every call is checked against its tool’s JSON Schema before anything else', () => {
  test('arguments that do not fit are answered invalid-arguments, naming the field, so the model can correct them', async () => {
    const { inv } = await invocation([declaration('wipe')]);
    const t = turn(inv, [call('wipe', { scope: 'everything' }), call('wipe', { scope: 'one' })]);
    validateCalls(inv, t);
    const [bad, good] = t.calls;
    expect(bad!.response?.response).toMatchObject({ response: null, code: 'invalid-arguments' });
    expect(bad!.response?.response.error).toMatch(/scope/);
    expect(good!.response).toBeUndefined();
  });

  test('a call to a tool that does not exist is answered unknown-tool with the names it may call', async () => {
    const { inv } = await invocation([declaration('wipe'), declaration('look')]);
    const t = turn(inv, [call('delete_everything', {})]);
    validateCalls(inv, t);
    expect(t.calls[0]!.response?.response).toMatchObject({ code: 'unknown-tool' });
    expect(t.calls[0]!.response?.response.error).toMatch(/"delete_everything".*wipe, look/);
  });

  test('the runtime’s own agent tools and calls refused earlier are left to their own rules', async () => {
    const { inv } = await invocation([declaration('wipe')]);
    const t = turn(inv, [call(TRANSFER_TOOL, { agent_name: 'x' }), call('wipe', { scope: 'x' })], {
      refused: new Map([['call-placeholder', { message: 'never', code: 'tool-not-allowed' }]]),
    });
    const refusedEarlier = turn(inv, [call('wipe', { scope: 'bad' })]);
    refusedEarlier.calls[0]!.response = {
      response: { id: 'x', name: 'wipe', response: null, error: 'not allowed this step' },
      ms: 0,
    };
    validateCalls(inv, t);
    validateCalls(inv, refusedEarlier);
    expect(t.calls[0]!.response).toBeUndefined();
    expect(refusedEarlier.calls[0]!.response?.response.error).toBe('not allowed this step');
  });
});
