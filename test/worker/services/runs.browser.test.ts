import { describe, expect, test } from 'vitest';
import { readPort, startedHost, stored, noteTool } from './started-host';

const control = () => ({ runId: crypto.randomUUID(), ifBusy: 'wait' as const });
const riskyTool = { ...noteTool, name: 'risky', description: 'Do something that needs a yes.', needsApproval: true };

describe('the runs service', () => {
  test('a message starts a run whose events stream back until its ending', async () => {
    const { host, ran } = await startedHost([
      { toolCalls: [{ name: 'note', args: { text: 'milk' } }] },
      { text: 'Noted: milk.' },
    ]);
    const port = await host.runs.start({ kind: 'message', ...control(), text: 'Remember milk', messageId: 'msg-1' });
    const events = stored(await readPort(port));
    expect(events[0]).toMatchObject({ id: 'msg-1', author: 'user' });
    expect(ran.map((call) => call.args)).toEqual([{ text: 'milk' }]);
    expect(events.at(-1)).toMatchObject({ endReason: 'answer', content: { parts: [{ text: 'Noted: milk.' }] } });
  });

  test('a message that is not text is refused before anything starts', async () => {
    const { host } = await startedHost([{ text: 'never said' }]);
    expect(() => host.runs.start({ kind: 'message', ...control(), text: '   ', messageId: 'msg-x' })).toThrow(
      /non-empty string/,
    );
    expect((await host.sessions.stats()).events).toBe(0);
  });

  test('a decision goes on with the call that waited, once; a second one finds nothing pending', async () => {
    const { host, ran } = await startedHost(
      [{ toolCalls: [{ name: 'risky', args: { text: 'go' } }] }, { text: 'Done.' }],
      {
        tools: [noteTool, riskyTool],
      },
    );
    const paused = stored(
      await readPort(await host.runs.start({ kind: 'message', ...control(), text: 'Go', messageId: 'm' })),
    );
    expect(paused.at(-1)?.endReason).toBe('awaiting-approval');
    expect(ran).toEqual([]);
    const [pending] = await host.sessions.pendingApprovals();
    const decided = stored(
      await readPort(await host.runs.start({ kind: 'decision', ...control(), callId: pending!.callId, granted: true })),
    );
    expect(ran.map((call) => call.name)).toEqual(['risky']);
    expect(decided.at(-1)?.endReason).toBe('answer');
    await expect(
      host.runs.start({ kind: 'decision', ...control(), callId: pending!.callId, granted: true }),
    ).rejects.toMatchObject({ code: 'approval-not-pending' });
  });

  test('a result for a call that waits for none is refused with not-pending', async () => {
    const { host } = await startedHost([{ text: 'Hi.' }]);
    await expect(
      host.runs.start({ kind: 'resolution', ...control(), callId: 'call-unknown', result: 1 }),
    ).rejects.toMatchObject({ code: 'not-pending' });
  });

  test('resuming a session whose last run ended streams nothing', async () => {
    const { host } = await startedHost([{ text: 'Hi.' }]);
    await readPort(await host.runs.start({ kind: 'message', ...control(), text: 'Hello', messageId: 'm' }));
    expect(await readPort(await host.runs.start({ kind: 'resume', ...control() }))).toEqual([]);
  });

  test('abort stops a run by the id the page gave it', async () => {
    const { host } = await startedHost([{ text: 'A very slow answer.', delayMs: 10_000 }]);
    const command = { kind: 'message' as const, ...control(), text: 'Hello', messageId: 'm' };
    const events = readPort(await host.runs.start(command));
    host.runs.abort(command.runId);
    expect(stored(await events).at(-1)?.endReason).toBe('aborted');
  });
});
