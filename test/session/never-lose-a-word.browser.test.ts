import { afterEach, describe, expect, test } from 'vitest';
import { createAgent, defineTool, z, type Agent, type AgentEvent } from '../../src/index';
import { foldSessionState } from '../../src/session/state';
import { killableWorker, responses, uniqueDb } from '../page/helpers';

const agents: Agent[] = [];
afterEach(async () => {
  await Promise.all(agents.splice(0).map((agent) => agent.close()));
});

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** A gate the code under test reaches (reached.opened), then waits at until the test opens it. */
function checkpoint() {
  return { ...gate(), reached: gate() };
}

/** The moments a worker is killed at, each reached through a real run. */
const moments = [
  'after the user event',
  'during the model step',
  'during a tool call',
  'after the tool answered',
] as const;

describe('a worker killed in the middle of a run', () => {
  test.each(moments)(
    'killed %s: the stored events are a prefix whose folded state is the stored state, and the next agent runs on',
    async (moment) => {
      const dbName = uniqueDb('prefix');
      const reached = gate();
      const hold = new Promise<void>(() => undefined);
      let executions = 0;
      const save = defineTool({
        name: 'save',
        description: 'Saves and records it in state.',
        parameters: z.object({ text: z.string() }),
        execute: async ({ text }) => {
          executions += 1;
          if (moment === 'during a tool call') {
            reached.open();
            await hold;
          }
          return { content: `saved ${text}`, stateDelta: { saved: text, 'user:count': 1 } };
        },
      });
      let steps = 0;
      const worker = killableWorker();
      const agent = await createAgent({
        workerUrl: worker.workerUrl,
        model: {
          engine: 'scripted',
          turns: [{ toolCalls: [{ name: 'save', args: { text: 'a' } }] }, { text: 'Saved.' }],
        },
        tools: [save],
        dbName,
        restart: 'never',
        callbacks: {
          beforeModel: async () => {
            steps += 1;
            // The kill travels to the worker while it goes on: hold it here, so it cannot reach the tool first.
            if (moment === 'after the user event') await hold;
            if (moment === 'during the model step' && steps === 1) {
              reached.open();
              await hold;
            }
            if (moment === 'after the tool answered' && steps === 2) {
              reached.open();
              await hold;
            }
            return undefined;
          },
          onEvent: (event) => {
            if (moment === 'after the user event' && event.author === 'user' && !event.partial) reached.open();
          },
        },
      });
      agents.push(agent);
      const sessionId = agent.sessionId;
      const run = agent.send('save a').catch((error) => error);
      await reached.opened;
      worker.kill();
      expect(await run).toMatchObject({ code: 'worker-crashed' });

      const next = await createAgent({
        model: { engine: 'scripted', turns: [{ text: 'Still here.' }] },
        tools: [save],
        dbName,
        sessionId,
      });
      agents.push(next);
      const { events, session } = (await next.sessions.get(sessionId))!;
      // A prefix: numbered 1..n without gaps, starting with the user's words.
      expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
      expect(events[0]!.content!.parts).toEqual([{ text: 'save a' }]);
      const sessionKeys = Object.fromEntries(Object.entries(session.state).filter(([key]) => !key.includes(':')));
      expect(sessionKeys).toEqual(foldSessionState(events.map((e) => e.actions?.stateDelta)));
      // Every call has exactly one answer (a real one, or "interrupted").
      const callIds = events.flatMap(
        (e) => e.content?.parts.flatMap((p) => ('functionCall' in p ? [p.functionCall.id] : [])) ?? [],
      );
      const answerIds = events.flatMap(
        (e) => e.content?.parts.flatMap((p) => ('functionResponse' in p ? [p.functionResponse.id] : [])) ?? [],
      );
      expect(answerIds.sort()).toEqual(callIds.sort());
      if (moment === 'during a tool call') {
        // The call that was cut off is answered "interrupted" and never re-run by the resume.
        expect(responses(events)).toEqual([{ id: callIds[0], name: 'save', response: null, error: 'interrupted' }]);
      }
      expect(executions).toBe(moment === 'after the user event' || moment === 'during the model step' ? 0 : 1);
      expect((await next.send('are you there?')).text).toBe('Still here.');
    },
  );
});

describe('two agents on one session', () => {
  test('their invocations never interleave, and ifBusy "fail" refuses clearly', async () => {
    const dbName = uniqueDb('two-agents');
    let release: ReturnType<typeof checkpoint> | undefined;
    const slow = defineTool({
      name: 'slow',
      description: 'Takes a moment, or waits for the test when it holds the session.',
      parameters: z.object({}),
      execute: async () => {
        if (release) {
          release.reached.open();
          await release.opened;
        } else await new Promise((resolve) => setTimeout(resolve, 80));
        return 'ok';
      },
    });
    const turns = [
      { toolCalls: [{ name: 'slow', args: {} }] },
      { text: 'done' },
      { toolCalls: [{ name: 'slow', args: {} }] },
      { text: 'done' },
    ];
    const first = await createAgent({ model: { engine: 'scripted', turns }, tools: [slow], dbName });
    agents.push(first);
    const second = await createAgent({
      model: { engine: 'scripted', turns },
      tools: [slow],
      dbName,
      sessionId: first.sessionId,
    });
    agents.push(second);
    const [a, b] = await Promise.all([first.send('one'), second.send('two')]);
    expect(a.text).toBe('done');
    expect(b.text).toBe('done');
    const { events } = (await first.sessions.get(first.sessionId))!;
    const order = events.map((e) => e.invocationId);
    const runs = order.filter((id, i) => id !== order[i - 1]);
    expect(runs).toHaveLength(2);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));

    // A third run holds the session (its tool waits on us) while the second agent asks not to wait.
    release = checkpoint();
    const busy = first.send('three');
    await release.reached.opened;
    await expect(second.send('four', { ifBusy: 'fail' })).resolves.toMatchObject({
      endReason: 'error',
      error: { code: 'session-busy' },
    });
    release.open();
    expect((await busy).text).toBe('done');
  });
});

describe('other agents on the session', () => {
  test("see another agent's new events through agent.sessions.subscribe (BroadcastChannel from its worker)", async () => {
    const dbName = uniqueDb('subscribe');
    const runner = await createAgent({
      model: { engine: 'scripted', turns: [{ text: 'Hello from the runner.' }] },
      dbName,
    });
    agents.push(runner);
    const watcher = await createAgent({
      model: { engine: 'scripted', turns: [] },
      dbName,
      sessionId: runner.sessionId,
    });
    agents.push(watcher);
    const seen: AgentEvent[] = [];
    const ended = new Promise<void>((resolve) => {
      const unsubscribe = watcher.sessions.subscribe(runner.sessionId, (event) => {
        seen.push(event);
        if (event.endReason) {
          unsubscribe();
          resolve();
        }
      });
    });
    const result = await runner.send('hi');
    await ended;
    const { events } = (await watcher.sessions.get(runner.sessionId))!;
    const invocation = events.filter((event) => event.invocationId === seen[0]!.invocationId);
    expect(seen.map((event) => event.seq)).toEqual(invocation.map((event) => event.seq));
    expect(seen.every((event) => !event.partial)).toBe(true);
    expect(seen.at(-1)!.content!.parts).toEqual([{ text: result.text }]);
  });

  test('see every event of a fast run of many steps once, in order (a frame’s events travel together)', async () => {
    const dbName = uniqueDb('subscribe-many');
    const steps = 25;
    const runner = await createAgent({
      model: {
        engine: 'scripted',
        turns: [
          // Each tick its own (the same call again would be refused as a repeat).
          ...Array.from({ length: steps }, (_, n) => ({ toolCalls: [{ name: 'tick', args: { n } }] })),
          { text: 'Ticked.' },
        ],
      },
      tools: [
        defineTool({
          name: 'tick',
          description: 'Ticks.',
          parameters: z.object({ n: z.number() }),
          execute: () => 'tick',
        }),
      ],
      maxSteps: steps + 1,
      dbName,
    });
    agents.push(runner);
    const watcher = await createAgent({
      model: { engine: 'scripted', turns: [] },
      dbName,
      sessionId: runner.sessionId,
    });
    agents.push(watcher);
    const seen: number[] = [];
    const ended = new Promise<void>((resolve) => {
      const unsubscribe = watcher.sessions.subscribe(runner.sessionId, (event) => {
        seen.push(event.seq);
        if (event.endReason) {
          unsubscribe();
          resolve();
        }
      });
    });
    const result = await runner.send('tick away');
    await ended;
    expect(result.text).toBe('Ticked.');
    const stored = (await watcher.sessions.get(runner.sessionId))!.events;
    const run = stored.filter((event) => event.seq >= seen[0]!);
    expect(seen).toEqual(run.map((event) => event.seq));
    expect(seen.length).toBeGreaterThan(2 * steps);
  });
});
