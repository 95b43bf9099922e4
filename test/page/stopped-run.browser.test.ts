/**
 * A stopped run stays stopped. The person stops a run while the approval
 * dialog is open, or onApproval throws, or never answers before the run is
 * aborted: the run ends with every call of its turn answered, and nothing
 * brings it back into running its tools: not agent.resume() (which the AI
 * SDK's useChat transport calls after a reload), on the same page or after a
 * reload, and not a yes the dialog gives once the run has stopped.
 */
import { describe, expect, test } from 'vitest';
import { defineTool, z, type AgentEvent, type ScriptedTurn } from '../../src/index';
import { agentsClosedAfterEach, calls, responses, storeLog, uniqueDb, type EarlierEvent } from './helpers';

const start = agentsClosedAfterEach();

async function all(events: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const seen: AgentEvent[] = [];
  for await (const event of events) if (!event.partial) seen.push(event);
  return seen;
}

function pageTools(ran: string[]) {
  const tool = (name: string, extra: object) =>
    defineTool({
      name,
      description: `${name} on this page.`,
      parameters: z.object({ table: z.string() }),
      ...extra,
      execute: ({ table }) => {
        ran.push(`${name} ${table}`);
        return { ok: true };
      },
    });
  return [
    tool('count_rows', { annotations: { readOnly: true } }),
    tool('drop_table', { annotations: { destructive: true } }),
  ];
}

/** The model calls drop_table, with a read-only call beside it; asked again, it calls drop_table again. */
const turns: ScriptedTurn[] = [
  {
    toolCalls: [
      { name: 'count_rows', args: { table: 'users' } },
      { name: 'drop_table', args: { table: 'users' } },
    ],
  },
  { toolCalls: [{ name: 'drop_table', args: { table: 'users' } }] },
  { text: 'Dropped.' },
];

type Stop = 'stop while the dialog is open, which then says yes' | 'onApproval throws' | 'onApproval never answers';

const stops: { stop: Stop; endReason: 'aborted' | 'error' }[] = [
  { stop: 'stop while the dialog is open, which then says yes', endReason: 'aborted' },
  { stop: 'onApproval throws', endReason: 'error' },
  { stop: 'onApproval never answers', endReason: 'aborted' },
];

describe('a stopped run stays stopped', () => {
  for (const { stop, endReason } of stops) {
    test(`${stop}: the run ends with every call answered, and resume() never runs its tools`, async () => {
      const dbName = uniqueDb('stopped-run');
      const ran: string[] = [];
      const controller = new AbortController();
      let sayYes: ((yes: boolean) => void) | undefined;
      let dialogs = 0;
      const agent = await start({
        model: { engine: 'scripted', turns },
        tools: pageTools(ran),
        dbName,
        // The first dialog meets the stop; any later one (a resumed run) would be approved.
        onApproval: () => {
          dialogs += 1;
          if (dialogs > 1) return true;
          if (stop === 'onApproval throws') throw new Error('the dialog broke');
          return new Promise<boolean>((resolve) => {
            sayYes = resolve;
            setTimeout(() => controller.abort(), 20);
          });
        },
      });
      const events = await all(agent.run('Drop the users table.', { signal: controller.signal }));
      expect(events.at(-1)?.endReason).toBe(endReason);
      if (stop === 'stop while the dialog is open, which then says yes') sayYes?.(true);

      // The log is whole when the run ends: each call has its answer, and none ran.
      const stored = (await agent.sessions.get(agent.sessionId))!.events;
      const made = calls(stored);
      expect(made.map((call) => call.name)).toEqual(['count_rows', 'drop_table']);
      const answers = responses(stored);
      expect(answers.map((answer) => answer.id).sort()).toEqual(made.map((call) => call.id).sort());
      for (const answer of answers) expect(answer.error).toMatch(endReason === 'aborted' ? /aborted/ : /dialog broke/);
      expect(stored.at(-1)?.endReason).toBe(endReason);

      // resume() on this page, as useChat's transport calls it, has nothing to go on with.
      expect(await all(agent.resume())).toEqual([]);
      // Nor after a reload.
      await agent.close();
      const reloaded = await start({
        model: { engine: 'scripted', turns },
        tools: pageTools(ran),
        dbName,
        sessionId: agent.sessionId,
        onApproval: () => true,
      });
      expect(await all(reloaded.resume())).toEqual([]);
      expect(await reloaded.pendingApprovals()).toEqual([]);
      expect(ran).toEqual([]);
      expect((await reloaded.sessions.get(agent.sessionId))!.events).toEqual(stored);
    });
  }

  test('a run an earlier version stopped with its calls left open stays stopped: their repair does not restart it', async () => {
    const dbName = uniqueDb('stopped-before');
    const sessionId = `stopped-${crypto.randomUUID()}`;
    const base = { sessionId, invocationId: 'inv-1', author: 'assistant' };
    const events: EarlierEvent[] = [
      {
        ...base,
        id: 'e1',
        seq: 1,
        timestamp: 1,
        author: 'user',
        content: { role: 'user', parts: [{ text: 'Drop it.' }] },
      },
      {
        ...base,
        id: 'e2',
        seq: 2,
        timestamp: 2,
        content: {
          role: 'model',
          parts: [{ functionCall: { id: 'c1', name: 'drop_table', args: { table: 'users' } } }],
        },
      },
      {
        ...base,
        id: 'e3',
        seq: 3,
        timestamp: 3,
        error: { code: 'aborted', message: 'The run was aborted.' },
        endReason: 'aborted',
      },
    ];
    await storeLog(dbName, events);

    const ran: string[] = [];
    const agent = await start({
      model: { engine: 'scripted', turns },
      tools: pageTools(ran),
      dbName,
      sessionId,
      onApproval: () => true,
    });
    expect(await all(agent.resume())).toEqual([]);
    expect(ran).toEqual([]);
    // The open call was answered when the session opened, and that is all that happened.
    const stored = (await agent.sessions.get(sessionId))!.events;
    expect(responses(stored)).toEqual([expect.objectContaining({ id: 'c1', error: 'interrupted' })]);
    expect(stored).toHaveLength(4);
  });
});
