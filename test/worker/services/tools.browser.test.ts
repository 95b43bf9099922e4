import { describe, expect, test } from 'vitest';
import { noteTool, readPort, startedHost } from './started-host';

describe('the tools service', () => {
  test('a tool registered is called by the next run; one unregistered is not offered', async () => {
    const { host, ran } = await startedHost([
      { toolCalls: [{ name: 'shout', args: { text: 'hey' } }] },
      { text: 'Shouted.' },
      { toolCalls: [{ name: 'shout', args: { text: 'again' } }] },
      { text: 'It is gone.' },
    ]);
    await host.tools.register([{ ...noteTool, name: 'shout' }]);
    await readPort(
      await host.runs.start({ kind: 'message', runId: 'r1', ifBusy: 'wait', text: 'Shout', messageId: 'm1' }),
    );
    expect(ran.map((call) => call.name)).toEqual(['shout']);
    await host.tools.unregister('shout');
    await readPort(
      await host.runs.start({ kind: 'message', runId: 'r2', ifBusy: 'wait', text: 'Again', messageId: 'm2' }),
    );
    expect(ran.map((call) => call.name)).toEqual(['shout']);
  });

  test('one bad declaration registers none of those given with it', async () => {
    const { host, ran } = await startedHost([{ toolCalls: [{ name: 'fine', args: { text: 'x' } }] }, { text: 'No.' }]);
    await expect(
      host.tools.register([
        { ...noteTool, name: 'fine' },
        { ...noteTool, name: 'not a name!' },
      ]),
    ).rejects.toMatchObject({ code: 'invalid-tool' });
    const events = await readPort(
      await host.runs.start({ kind: 'message', runId: 'r1', ifBusy: 'wait', text: 'Go', messageId: 'm1' }),
    );
    expect(JSON.stringify(events)).toMatch(/unknown-tool/);
    expect(ran).toEqual([]);
  });

  test('a chunk for a call that streams nothing is dropped without a word', async () => {
    const { host } = await startedHost([]);
    expect(() => host.tools.chunk('call-none', { part: 1 })).not.toThrow();
  });
});
