/**
 * The approval attacks of issue 31's chaos run, repeated as often as the run
 * tried them: approve then abort (20 tries), approve twice (10), approve with
 * another session's id (5), reject then approve (18), and a turn with part of
 * its calls decided followed by a new message, a worker kill or a reload.
 * (A close and reopen between two decisions is approval-turns.browser.test.ts's
 * 'a reload between two decisions'; approve() twice at once on a memory store
 * is approval-gate's; a new message on a turn with one waiting call is the
 * loop's 'moving on'.)
 *
 * What must hold, whatever the timing: a call runs at most once, and only
 * after a yes from its own session; a call is decided at most once; when a run
 * ends, every call of its turn is answered once or still waits for a person
 * (and is then listed by pendingApprovals()); a stopped run is not brought back
 * into running its tools; an abort given before a run ended ends it aborted.
 * Tries differ in where the abort lands, never by how long anything takes.
 *
 * Found by this file on aedaf69: an abort given right after approve() or
 * run() is called, in the same task, was lost. The run went on to its answer
 * and its tools ran (Agent.stream checked signal.aborted before it awaited the
 * worker's connection and listened for 'abort' only after it). Tries 2, 7, 12
 * and 17 of 'approve, then abort' and 'the same abort on a new message' failed
 * until Agent.stream checked the signal again once the worker was there.
 */
import { describe, expect, test } from 'vitest';
import { AgentError, defineTool, z, type Agent, type AgentEvent, type ScriptedTurn } from '../../src/index';
import { agentsClosedAfterEach, calls, killableWorker, rejection, responses, uniqueDb } from './helpers';

const start = agentsClosedAfterEach();

/** count_rows runs without asking; drop_table and truncate_table ask first. Every run is logged as "<tool> <table>". */
function tableTools(ran: string[], onRun?: (name: string) => void) {
  const tool = (name: string, needsApproval: boolean) =>
    defineTool({
      name,
      description: `${name} on this page.`,
      needsApproval,
      parameters: z.object({ table: z.string() }),
      execute: async ({ table }) => {
        onRun?.(name);
        ran.push(`${name} ${table}`);
        return { ok: `${name} ${table}` };
      },
    });
  return [tool('count_rows', false), tool('drop_table', true), tool('truncate_table', true)];
}

const dropTurn = (table: string): ScriptedTurn[] => [
  {
    toolCalls: [
      { name: 'count_rows', args: { table } },
      { name: 'drop_table', args: { table } },
    ],
  },
  { text: `Dropped ${table}.` },
];

async function stored(agent: Agent): Promise<AgentEvent[]> {
  return (await agent.sessions.get(agent.sessionId))!.events;
}

function decisionsOn(events: AgentEvent[], callId: string) {
  return events.flatMap((event) =>
    event.actions?.approval?.callId === callId ? [event.actions.approval.granted] : [],
  );
}

/** Resolves once the agent's status has been `status` (a crash is seen through the worker's lifeline, not at once). */
function statusSeen(agent: Agent, status: Agent['status']): Promise<void> {
  return new Promise((resolve) => {
    if (agent.status === status) return resolve();
    const listener = (event: Event) => {
      if ((event as CustomEvent<{ status: string }>).detail.status !== status) return;
      agent.removeEventListener('status', listener);
      resolve();
    };
    agent.addEventListener('status', listener);
  });
}

async function all(events: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const seen: AgentEvent[] = [];
  for await (const event of events) if (!event.partial) seen.push(event);
  return seen;
}

/**
 * The log is whole: each call of the session is answered once, or its turn waits for a person (a turn's calls run
 * together once every call that asks is decided, so none of them is answered yet). Answers recorded late (a tool
 * that finished after its run stopped) are kept apart and do not count.
 */
async function expectWhole(agent: Agent, where: string) {
  const events = await stored(agent);
  const waiting = new Set((await agent.pendingApprovals()).map((request) => request.callId));
  for (const event of events) {
    const turn = calls([event]);
    const open = turn.some((call) => waiting.has(call.id));
    for (const call of turn) {
      const answers = responses(events).filter((answer) => answer.id === call.id);
      expect(answers.length, `${where}: answers to ${call.name} ${call.id}`).toBe(open ? 0 : 1);
    }
  }
}

describe('approve, then abort at once', () => {
  // Where the abort lands: before approve() is called, right after, a few timer turns later, or as a tool of the
  // turn starts (the one that runs without asking, or the approved one).
  const moments = [
    'before approve()',
    'right after approve()',
    'after a timer',
    'as count_rows starts',
    'as drop_table starts',
  ] as const;
  for (let i = 0; i < 20; i++) {
    const moment = moments[i % moments.length]!;
    test(`try ${i + 1} of 20, abort ${moment}: the run ends aborted, the call runs at most once, the log is whole, and nothing starts it again`, async () => {
      const dbName = uniqueDb('approve-abort');
      const ran: string[] = [];
      const table = `t${i}`;
      const controller = new AbortController();
      const agent = await start({
        model: { engine: 'scripted', turns: dropTurn(table) },
        tools: tableTools(ran, (name) => moment === `as ${name} starts` && controller.abort()),
        dbName,
      });
      expect((await agent.send(`Drop ${table}.`)).endReason).toBe('awaiting-approval');
      const [asked] = await agent.pendingApprovals();
      expect(asked).toMatchObject({ name: 'drop_table', args: { table } });

      if (moment === 'before approve()') controller.abort();
      const decided = agent.approve(asked!.callId, { signal: controller.signal });
      if (moment === 'right after approve()') controller.abort();
      if (moment === 'after a timer') setTimeout(() => controller.abort(), Math.floor(i / moments.length));
      const [outcome] = await Promise.allSettled([decided]);
      if (outcome!.status === 'rejected') expect(outcome.reason).toBeInstanceOf(AgentError);
      const ending = outcome!.status === 'rejected' ? outcome.reason.code : outcome!.value.endReason;
      // An abort given before the run could end ends it (after a timer, the run may have ended first).
      if (moment === 'after a timer') expect(['aborted', 'answer']).toContain(ending);
      else expect(ending, 'how the run ended').toBe('aborted');

      const drops = () => ran.filter((entry) => entry === `drop_table ${table}`).length;
      expect(drops()).toBeLessThanOrEqual(1);
      await expectWhole(agent, 'after the abort');
      const waiting = (await agent.pendingApprovals()).map((request) => request.callId);
      const decisions = decisionsOn(await stored(agent), asked!.callId);
      // Either the yes was stored (once) and the call no longer waits, or it was not and the call still waits.
      expect(decisions.length).toBe(waiting.includes(asked!.callId) ? 0 : 1);
      const ranBefore = [...ran];

      // Nothing brings the stopped run back into running its tools: not resume(), not a reload.
      await all(agent.resume());
      expect(ran).toEqual(ranBefore);
      await agent.close();
      const reloaded = await start({
        model: { engine: 'scripted', turns: dropTurn(table) },
        tools: tableTools(ran),
        dbName,
        sessionId: agent.sessionId,
        onApproval: () => true,
      });
      await all(reloaded.resume());
      expect(ran).toEqual(ranBefore);
      expect((await reloaded.pendingApprovals()).map((request) => request.callId)).toEqual(waiting);

      // A call the abort left waiting can still be approved, and then runs once.
      if (waiting.length) {
        expect((await reloaded.approve(asked!.callId)).endReason).toBe('answer');
        expect(drops()).toBe(1);
      }
      expect(drops()).toBeLessThanOrEqual(1);
      await expectWhole(reloaded, 'at the end');
    });
  }

  test('the same abort on a new message: a run aborted right after run() is called ends aborted, without its answer', async () => {
    const ran: string[] = [];
    const agent = await start({
      model: {
        engine: 'scripted',
        turns: [{ toolCalls: [{ name: 'count_rows', args: { table: 'users' } }] }, { text: 'Counted.' }],
      },
      tools: tableTools(ran),
      dbName: uniqueDb('send-abort'),
    });
    const controller = new AbortController();
    const sent = agent.send('Count the users.', { signal: controller.signal });
    controller.abort();
    const [outcome] = await Promise.allSettled([sent]);
    const ending = outcome!.status === 'rejected' ? outcome.reason.code : outcome!.value.endReason;
    expect(ending, 'how the run ended').toBe('aborted');
    expect(ran.length).toBeLessThanOrEqual(1);
    await expectWhole(agent, 'after the abort');
  });
});

describe('approve twice', () => {
  test('10 tries on IndexedDB, at once and one after the other: the call runs once, one decision and one answer are stored, the model answers once', async () => {
    const ran: string[] = [];
    const tables = Array.from({ length: 10 }, (_, i) => `t${i}`);
    const agent = await start({
      model: { engine: 'scripted', turns: tables.flatMap(dropTurn) },
      tools: tableTools(ran),
      dbName: uniqueDb('approve-twice'),
    });
    for (const [i, table] of tables.entries()) {
      const where = `try ${i + 1} (${i % 2 ? 'one after the other' : 'at once'})`;
      await agent.send(`Drop ${table}.`);
      const [asked] = await agent.pendingApprovals();
      const settled =
        i % 2
          ? [
              ...(await Promise.allSettled([agent.approve(asked!.callId)])),
              ...(await Promise.allSettled([agent.approve(asked!.callId)])),
            ]
          : await Promise.allSettled([agent.approve(asked!.callId), agent.approve(asked!.callId)]);
      const done = settled.filter((s) => s.status === 'fulfilled');
      const refused = settled.filter((s) => s.status === 'rejected');
      expect(done.length, where).toBe(1);
      expect(
        refused.map((s) => (s as PromiseRejectedResult).reason.code),
        where,
      ).toEqual(['approval-not-pending']);
      expect((done[0] as PromiseFulfilledResult<{ text: string }>).value.text, where).toBe(`Dropped ${table}.`);
      expect(
        ran.filter((entry) => entry.endsWith(` ${table}`)),
        where,
      ).toEqual([`count_rows ${table}`, `drop_table ${table}`]);
      const events = await stored(agent);
      expect(decisionsOn(events, asked!.callId), where).toEqual([true]);
      const answers = events.filter((event) =>
        event.content?.parts.some((part) => 'text' in part && part.text === `Dropped ${table}.`),
      );
      expect(answers.length, where).toBe(1);
      await expectWhole(agent, where);
    }
  });
});

describe("approve with another session's id", () => {
  // What the other agent holds when it tries: nothing waiting, a waiting call of its own, a waiting call of its own
  // while the owner approves at the same moment, the owner's session id instead of a call id, another database.
  const setups = [
    'nothing waiting',
    'its own call waiting',
    'the owner approving at once',
    'a session id',
    'another database',
  ];
  for (const [i, setup] of setups.entries()) {
    test(`try ${i + 1} of 5 (${setup}): refused with approval-not-pending, nothing runs, the owner's call still waits for its owner`, async () => {
      const dbName = uniqueDb('other-session');
      const ran: string[] = [];
      const owner = await start({
        model: { engine: 'scripted', turns: dropTurn('users') },
        tools: tableTools(ran),
        dbName,
      });
      const other = await start({
        model: { engine: 'scripted', turns: dropTurn('guests') },
        tools: tableTools(ran),
        dbName: setup === 'another database' ? uniqueDb('other-session-b') : dbName,
      });
      expect(other.sessionId).not.toBe(owner.sessionId);
      await owner.send('Drop users.');
      const [asked] = await owner.pendingApprovals();
      if (setup !== 'nothing waiting') await other.send('Drop guests.');
      const [own] = await other.pendingApprovals();

      const target = setup === 'a session id' ? owner.sessionId : asked!.callId;
      if (setup === 'the owner approving at once') {
        const [theirs, mine] = await Promise.allSettled([other.approve(target), owner.approve(target)]);
        expect((theirs as PromiseRejectedResult).reason).toMatchObject({ code: 'approval-not-pending' });
        expect(mine!.status).toBe('fulfilled');
        expect(ran).toEqual(['count_rows users', 'drop_table users']);
      } else {
        expect((await rejection(other.approve(target))).code).toBe('approval-not-pending');
        expect((await rejection(other.reject(target, 'not yours'))).code).toBe('approval-not-pending');
        expect(ran).toEqual([]);
        expect((await owner.pendingApprovals()).map((request) => request.callId)).toEqual([asked!.callId]);
        expect(decisionsOn(await stored(owner), asked!.callId)).toEqual([]);
        await owner.approve(asked!.callId);
        expect(ran).toEqual(['count_rows users', 'drop_table users']);
      }
      expect(decisionsOn(await stored(other), asked!.callId)).toEqual([]);
      expect(decisionsOn(await stored(owner), asked!.callId)).toEqual([true]);
      if (own) {
        expect((await other.approve(own.callId)).endReason).toBe('answer');
        expect(ran.slice(2)).toEqual(['count_rows guests', 'drop_table guests']);
      }
      await expectWhole(owner, 'owner');
      await expectWhole(other, 'other');
    });
  }
});

describe('reject, then approve', () => {
  // A turn of one call that asks, or of two that ask, the rejected one first or second; reject() awaited or not.
  const shapes = ['one call', 'two calls, rejected first', 'two calls, rejected second'] as const;
  const tries = Array.from({ length: 18 }, (_, i) => ({
    shape: shapes[i % 3]!,
    together: Math.floor(i / 3) % 2 === 1,
  }));
  test('18 tries: a call is decided once; a rejected call never runs, and the approval after it is refused', async () => {
    const ran: string[] = [];
    const turnOf = (i: number): ScriptedTurn[] => [
      {
        toolCalls: [
          { name: 'drop_table', args: { table: `t${i}` } },
          ...(tries[i]!.shape === 'one call' ? [] : [{ name: 'truncate_table', args: { table: `t${i}` } }]),
        ],
      },
      { text: `Done with t${i}.` },
    ];
    const agent = await start({
      model: { engine: 'scripted', turns: tries.flatMap((_, i) => turnOf(i)) },
      tools: tableTools(ran),
      dbName: uniqueDb('reject-approve'),
    });
    for (const [i, { shape, together }] of tries.entries()) {
      const where = `try ${i + 1}: ${shape}, ${together ? 'at once' : 'one after the other'}`;
      await agent.send(`Clear t${i}.`);
      const asked = await agent.pendingApprovals();
      const [target, rest] = shape === 'two calls, rejected second' ? [asked[1]!, asked[0]] : [asked[0]!, asked[1]];
      if (rest && shape === 'two calls, rejected second') await agent.approve(rest.callId);

      let rejected: boolean;
      if (together) {
        const [no, yes] = await Promise.allSettled([agent.reject(target.callId), agent.approve(target.callId)]);
        expect([no!.status, yes!.status].sort(), where).toEqual(['fulfilled', 'rejected']);
        const refused = (no!.status === 'rejected' ? no : yes) as PromiseRejectedResult;
        expect(refused.reason.code, where).toBe('approval-not-pending');
        rejected = no!.status === 'fulfilled';
      } else {
        await agent.reject(target.callId, 'no');
        expect((await rejection(agent.approve(target.callId))).code, where).toBe('approval-not-pending');
        rejected = true;
      }
      if (rest && shape === 'two calls, rejected first') await agent.approve(rest.callId);
      expect(decisionsOn(await stored(agent), target.callId), where).toEqual([!rejected]);
      expect(
        ran.filter((entry) => entry === `${target.name} t${i}`),
        where,
      ).toEqual(rejected ? [] : [`${target.name} t${i}`]);
      expect(await agent.pendingApprovals(), where).toEqual([]);
      expect((await rejection(agent.approve(target.callId))).code, where).toBe('approval-not-pending');
      await expectWhole(agent, where);
    }
  });
});

describe('a turn decided in part, then', () => {
  /** A turn of four calls, three of which ask: drop users is approved, truncate logs rejected, drop guests left waiting. */
  const partTurn: ScriptedTurn[] = [
    {
      toolCalls: [
        { name: 'count_rows', args: { table: 'users' } },
        { name: 'drop_table', args: { table: 'users' } },
        { name: 'truncate_table', args: { table: 'logs' } },
        { name: 'drop_table', args: { table: 'guests' } },
      ],
    },
    { text: 'Done.' },
  ];

  async function decideInPart(agent: Agent) {
    expect((await agent.send('Clean up.')).endReason).toBe('awaiting-approval');
    const [dropUsers, truncateLogs, dropGuests] = await agent.pendingApprovals();
    expect((await agent.approve(dropUsers!.callId)).endReason).toBe('awaiting-approval');
    expect((await agent.reject(truncateLogs!.callId, 'keep the logs')).endReason).toBe('awaiting-approval');
    return { dropUsers: dropUsers!, truncateLogs: truncateLogs!, dropGuests: dropGuests! };
  }

  test('a new message: no call of the turn runs, each is answered once, and none can be decided afterwards', async () => {
    const ran: string[] = [];
    const agent = await start({
      model: { engine: 'scripted', turns: [partTurn[0]!, { text: 'Left everything as it was.' }] },
      tools: tableTools(ran),
      dbName: uniqueDb('part-message'),
    });
    const asked = await decideInPart(agent);
    const next = await agent.send('Actually, leave it all.');
    expect(next.text).toBe('Left everything as it was.');
    expect(ran).toEqual([]);
    const events = await stored(agent);
    const turn = calls(events);
    expect(responses(events).map((answer) => answer.id)).toEqual(turn.map((call) => call.id));
    for (const answer of responses(events)) expect(answer.error).toMatch(/Not run/);
    for (const request of Object.values(asked))
      expect((await rejection(agent.approve(request.callId))).code).toBe('approval-not-pending');
    expect(ran).toEqual([]);
    expect(await all(agent.resume())).toEqual([]);
    expect(ran).toEqual([]);
  });

  for (const ending of ['a worker kill', 'a reload'] as const) {
    test(`${ending}: the decisions hold, the last waiting call is asked for, and the turn runs once with them`, async () => {
      const ran: string[] = [];
      const dbName = uniqueDb('part-crash');
      const worker = killableWorker();
      const first = await start({
        model: { engine: 'scripted', turns: partTurn },
        tools: tableTools(ran),
        dbName,
        workerUrl: worker.workerUrl,
        // A reload: the page and its worker are gone at once, and the next page opens the session.
        restart: ending === 'a reload' ? 'never' : 'auto',
      });
      const asked = await decideInPart(first);
      const crashed = statusSeen(first, 'crashed');
      worker.kill();
      await crashed;
      const agent =
        ending === 'a reload'
          ? await start({
              model: { engine: 'scripted', turns: partTurn },
              tools: tableTools(ran),
              dbName,
              sessionId: first.sessionId,
            })
          : first;
      expect(await agent.pendingApprovals()).toEqual([asked.dropGuests]);
      expect(await all(agent.resume())).toEqual([]);
      expect(ran).toEqual([]);
      for (const request of [asked.dropUsers, asked.truncateLogs])
        expect((await rejection(agent.approve(request.callId))).code).toBe('approval-not-pending');

      const done = await agent.approve(asked.dropGuests.callId);
      expect(done.text).toBe('Done.');
      expect(ran).toEqual(['count_rows users', 'drop_table users', 'drop_table guests']);
      const events = await stored(agent);
      expect(decisionsOn(events, asked.dropUsers.callId)).toEqual([true]);
      expect(decisionsOn(events, asked.truncateLogs.callId)).toEqual([false]);
      expect(decisionsOn(events, asked.dropGuests.callId)).toEqual([true]);
      await expectWhole(agent, ending);
      expect(await all(agent.resume())).toEqual([]);
      expect(ran).toHaveLength(3);
    });
  }
});
