import { afterEach, describe, expect, test } from 'vitest';
import { createAgent, defineTool, z, type Agent, type AgentStatus } from '../../src/index';
import { killableWorker, responses, uniqueDb } from './helpers';

const agents: Agent[] = [];
afterEach(async () => {
  await Promise.all(agents.splice(0).map((agent) => agent.close()));
});

/** Settles with the promise's outcome, or fails the test if it is still pending after `ms` (a hang check, not a speed check). */
function settlesWithin<T>(promise: Promise<T>, ms: number): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`still pending after ${ms} ms`)), ms)),
  ]);
}

function statuses(agent: Agent): AgentStatus[] {
  const seen: AgentStatus[] = [];
  agent.addEventListener('status', (event) => seen.push((event as CustomEvent<{ status: AgentStatus }>).detail.status));
  return seen;
}

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe('a worker that dies', () => {
  test('killed during a model step: the pending run rejects with worker-crashed, the agent restarts, and the next run works on the same session', async () => {
    const dbName = uniqueDb('crash-model');
    let stepStarted = gate();
    let release = gate();
    const worker = killableWorker();
    const agent = await createAgent({
      workerUrl: worker.workerUrl,
      model: { engine: 'scripted', turns: [{ text: 'Back again.' }] },
      dbName,
      callbacks: {
        // Holds the model step open until the test says so.
        beforeModel: async () => {
          stepStarted.open();
          await release.opened;
          return undefined;
        },
      },
    });
    agents.push(agent);
    const seen = statuses(agent);
    const sessionId = agent.sessionId;
    const run = agent.send('hello');
    await stepStarted.opened;
    worker.kill();
    await expect(settlesWithin(run, 3000)).rejects.toMatchObject({ code: 'worker-crashed' });
    expect(seen).toContain('crashed');

    stepStarted = gate();
    release = gate();
    release.open();
    const { text, events } = await agent.send('are you there?');
    expect(text).toBe('Back again.');
    expect(agent.sessionId).toBe(sessionId);
    const stored = (await agent.sessions.get(sessionId))!.events;
    // Nothing lost: the first user message is still there, before the second run.
    expect(stored[0]!.content!.parts).toEqual([{ text: 'hello' }]);
    expect(stored.map((event) => event.seq)).toEqual(stored.map((_, i) => i + 1));
    expect(events[0]!.content!.parts).toEqual([{ text: 'are you there?' }]);
    expect(seen.at(-1)).toBe('ready');
  });

  test('killed during a tool call: the call is answered "interrupted" on restart, tools are re-registered, and the next run uses them', async () => {
    const dbName = uniqueDb('crash-tool');
    const toolStarted = gate();
    let calls = 0;
    const slow = defineTool({
      name: 'slow_save',
      description: 'Saves slowly.',
      parameters: z.object({ text: z.string() }),
      execute: async ({ text }) => {
        calls += 1;
        if (calls === 1) {
          toolStarted.open();
          await new Promise(() => undefined);
        }
        return `saved ${text}`;
      },
    });
    const worker = killableWorker();
    const agent = await createAgent({
      workerUrl: worker.workerUrl,
      model: {
        engine: 'scripted',
        turns: [
          { toolCalls: [{ name: 'slow_save', args: { text: 'a' }, id: 'first' }] },
          { toolCalls: [{ name: 'slow_save', args: { text: 'b' }, id: 'second' }] },
          { text: 'Saved b.' },
        ],
      },
      tools: [slow],
      dbName,
    });
    agents.push(agent);
    const run = agent.send('save a');
    await toolStarted.opened;
    worker.kill();
    await expect(settlesWithin(run, 3000)).rejects.toMatchObject({ code: 'worker-crashed' });

    const { text, events } = await agent.send('save b then');
    expect(text).toBe('Saved b.');
    expect(responses(events).map((r) => r.response)).toEqual(['saved b']);
    const stored = (await agent.sessions.get(agent.sessionId))!.events;
    // The model called it "first"; the runtime's own id is what the answer refers to.
    const first = stored
      .flatMap((e) => e.content?.parts ?? [])
      .flatMap((p) => ('functionCall' in p ? [p.functionCall] : []))
      .find((call) => call.modelCallId === 'first');
    expect(responses(stored).find((r) => r.id === first!.id)).toMatchObject({ error: 'interrupted' });
    expect(calls).toBe(2);
  });

  test('the restarted worker gets the tools registered and unregistered since the start, as they are now', async () => {
    const worker = killableWorker();
    const tool = (name: string) =>
      defineTool({
        name,
        description: `The ${name} tool.`,
        parameters: z.object({}),
        execute: () => `${name} ran`,
      });
    const agent = await createAgent({
      workerUrl: worker.workerUrl,
      model: {
        engine: 'scripted',
        turns: [
          {
            toolCalls: [
              { name: 'added', args: {} },
              { name: 'removed', args: {} },
            ],
          },
          { text: 'done' },
        ],
      },
      tools: [tool('removed')],
      dbName: uniqueDb('crash-registry'),
    });
    agents.push(agent);
    const seen = statuses(agent);
    await agent.registerTool(tool('added'));
    await agent.unregisterTool('removed');
    worker.kill();
    // A restart on a busy machine (2 cores shared) takes longer than expect.poll's default second.
    await expect.poll(() => seen.includes('crashed'), { timeout: 15_000 }).toBe(true);
    await expect.poll(() => seen.at(-1), { timeout: 15_000 }).toBe('ready');
    const { events } = await agent.send('use them');
    expect(responses(events).map((r) => r.response ?? r.code)).toEqual(['added ran', 'unknown-tool']);
  });

  test('agent.toolkit reaches the restarted worker, and a call the dead worker never answered rejects instead of hanging', async () => {
    const worker = killableWorker();
    const agent = await createAgent({
      workerUrl: worker.workerUrl,
      model: { engine: 'scripted', turns: [] },
      dbName: uniqueDb('crash-toolkit'),
    });
    agents.push(agent);
    const seen = statuses(agent);
    await agent.toolkit.addAction({ id: 'plan', name: 'Plan', description: 'decide' });
    expect(await agent.toolkit.toMermaid()).toMatch(/Plan/);
    worker.kill();
    const during = agent.toolkit.toMermaid().then(
      () => 'answered',
      (error: { code?: string }) => error.code,
    );
    expect(await settlesWithin(during, 3000)).toMatch(/^(answered|worker-crashed)$/);
    // A restart on a busy machine (2 cores shared) takes longer than expect.poll's default second.
    await expect.poll(() => seen.includes('crashed'), { timeout: 15_000 }).toBe(true);
    await expect.poll(() => seen.at(-1), { timeout: 15_000 }).toBe('ready');
    // The graph was saved; the new worker loaded it, and the handle reaches that worker.
    expect((await agent.toolkit.toJSON()).vertices.map((vertex) => vertex.id)).toEqual(['plan']);
  });

  test("with restart: 'never' the agent stays crashed and says so", async () => {
    const release = gate();
    const worker = killableWorker();
    const agent = await createAgent({
      workerUrl: worker.workerUrl,
      model: { engine: 'scripted', turns: [{ text: 'never' }] },
      storage: 'memory',
      restart: 'never',
      callbacks: { beforeModel: () => release.opened.then(() => undefined) },
    });
    agents.push(agent);
    const run = agent.send('hi');
    await new Promise((resolve) => setTimeout(resolve, 50));
    worker.kill();
    await expect(settlesWithin(run, 3000)).rejects.toMatchObject({ code: 'worker-crashed' });
    expect(agent.status).toBe('crashed');
    await expect(settlesWithin(agent.send('again'), 3000)).rejects.toMatchObject({ code: 'worker-crashed' });
  });

  test('a worker file that cannot load fails createAgent with a message naming the fix', async () => {
    await expect(
      createAgent({ model: { engine: 'scripted', turns: [] }, storage: 'memory', workerUrl: '/no-such-worker.js' }),
    ).rejects.toMatchObject({
      code: 'worker-failed',
    });
  });
});
