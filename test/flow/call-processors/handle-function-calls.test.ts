import { describe, expect, test } from 'vitest';
import { callProcessors, handleFunctionCalls, turnProcessors } from '../../../src/flow/handle-function-calls';
import { validateCalls } from '../../../src/flow/call-processors/validate-call';
import { approvalGate } from '../../../src/flow/call-processors/approval-gate';
import { repeatGuard } from '../../../src/flow/call-processors/repeat-guard';
import { groundValues } from '../../../src/flow/decisions/grounded-values';
import { askedOrder } from '../../../src/flow/decisions/asked-order';
import { oneItemEach } from '../../../src/flow/decisions/one-item-each';
import { onlyWhatIsAsked } from '../../../src/flow/decisions/only-what-is-asked';
import { beforeTool } from '../../../src/flow/call-processors/before-tool';
import { runTool } from '../../../src/flow/call-processors/run-tool';
import { afterTool } from '../../../src/flow/call-processors/after-tool';
import { call, declaration, invocation } from './fixture';

const wipe = declaration('wipe', { needsApproval: true, annotations: { destructive: true } });
const look = declaration('look', { annotations: { readOnly: true } });

describe('the pipeline of a turn’s calls', () => {
  test('its steps, in order: validate → grounded values → asked order → one item each → only what is asked → repeat guard → approval gate, then before-tool → run → after-tool for each call, then merge', () => {
    expect(turnProcessors).toEqual([
      validateCalls,
      groundValues,
      askedOrder,
      oneItemEach,
      onlyWhatIsAsked,
      repeatGuard,
      approvalGate,
    ]);
    expect(callProcessors).toEqual([beforeTool, runTool, afterTool]);
  });

  test('a malformed call to a destructive tool is refused before the page is asked; the rest of the turn is asked in one hop and runs in order', async () => {
    const { inv, hops, events } = await invocation([wipe, look], {
      prepare: (c) => ({ ok: true, args: c.args, needsApproval: true, granted: true }),
      beforeTool: () => undefined,
      afterTool: () => undefined,
    });
    const calls = [
      call('wipe', { scope: 'everything' }),
      call('wipe', { scope: 'one' }),
      call('wipe', { scope: 'all' }),
    ];
    expect(await handleFunctionCalls(inv, 'assistant', calls)).toEqual({ kind: 'continue' });
    expect(
      hops.map((h) => [h.hop, 'calls' in h ? h.calls.map((c) => c.callId) : 'call' in h ? h.call.callId : h.callId]),
    ).toEqual([
      ['prepareCalls', [calls[1]!.id, calls[2]!.id]],
      ['beforeTool', calls[1]!.id],
      ['run', calls[1]!.id],
      ['afterTool', calls[1]!.id],
      ['beforeTool', calls[2]!.id],
      ['run', calls[2]!.id],
      ['afterTool', calls[2]!.id],
    ]);
    // Two decisions, then one event answering all three calls in the model's order.
    const tool = events.at(-1)!;
    expect(events.slice(0, 2).map((e) => e.actions?.approval?.granted)).toEqual([true, true]);
    expect(tool.content?.parts.map((p) => ('functionResponse' in p ? p.functionResponse.id : ''))).toEqual(
      calls.map((c) => c.id),
    );
    expect(tool.content?.parts[0]).toMatchObject({ functionResponse: { code: 'invalid-arguments' } });
  });

  test('read-only calls run at once; a turn over the per-step limit runs nothing', async () => {
    let running = 0;
    let most = 0;
    const { inv } = await invocation([look], {
      run: async () => {
        most = Math.max(most, ++running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running -= 1;
        return { ok: true, result: { content: 'seen' }, ms: 5 };
      },
    });
    await handleFunctionCalls(inv, 'assistant', [call('look', { scope: 'one' }), call('look', { scope: 'all' })]);
    expect(most).toBe(2);

    const limited = await invocation([look]);
    limited.inv.limits = { maxSteps: 10, maxToolCallsPerStep: 1, maxRepeatedCalls: 1 };
    const outcome = await handleFunctionCalls(limited.inv, 'assistant', [
      call('look', { scope: 'one' }),
      call('look', { scope: 'all' }),
    ]);
    expect(outcome).toEqual({ kind: 'end', reason: 'max-tool-calls' });
    expect(limited.hops).toEqual([]);
  });

  test('a turn whose approval hop fails answers every call before the failure ends the run; a refusal made before stands', async () => {
    const { inv, events } = await invocation([wipe, look], {
      prepare: () => {
        throw new Error('the dialog broke');
      },
    });
    const calls = [call('wipe', { scope: 'nope' }), call('wipe', { scope: 'all' }), call('look', { scope: 'one' })];
    await expect(handleFunctionCalls(inv, 'assistant', calls)).rejects.toMatchObject({ code: 'callback-failed' });
    const answers = events
      .flatMap((e) => e.content?.parts ?? [])
      .map((p) => ('functionResponse' in p ? p.functionResponse : undefined));
    expect(answers.map((a) => a?.id)).toEqual(calls.map((c) => c.id));
    expect(answers[0]).toMatchObject({ code: 'invalid-arguments' });
    for (const answer of answers.slice(1))
      expect(answer).toMatchObject({
        response: null,
        code: 'callback-failed',
        error: expect.stringMatching(/^Not run: .*dialog broke/),
      });
  });

  test('a turn stopped while its approval hop is out answers every call aborted', async () => {
    const controller = new AbortController();
    const { inv, events } = await invocation([wipe], {
      prepare: () => {
        controller.abort();
        return { ok: true, args: {}, needsApproval: true };
      },
    });
    inv.signal = controller.signal;
    const calls = [call('wipe', { scope: 'all' })];
    expect(await handleFunctionCalls(inv, 'assistant', calls)).toEqual({ kind: 'end', reason: 'aborted' });
    expect(events.at(-1)).toMatchObject({
      endReason: 'aborted',
      content: { parts: [{ functionResponse: { id: calls[0]!.id, error: expect.stringMatching(/^aborted/) } }] },
    });
  });
});
