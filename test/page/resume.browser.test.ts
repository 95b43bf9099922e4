/**
 * agent.resume() goes on with a run that a crash or a reload cut off, and
 * agent.generate() runs one step of the agent's model outside the loop.
 * Real workers, killed as a crash kills them; real IndexedDB.
 */
import { describe, expect, test } from 'vitest';
import { defineTool, z, type AgentEvent } from '../../src/index';
import { agentsClosedAfterEach, killableWorker, responses, uniqueDb } from './helpers';

const start = agentsClosedAfterEach();

/** A page tool that holds until the test lets it go, and says when it started. */
function heldTool() {
  let started!: () => void;
  const running = new Promise<void>((resolve) => (started = resolve));
  const runs: string[] = [];
  const tool = defineTool({
    name: 'slow_lookup',
    description: 'Looks something up, slowly.',
    annotations: { readOnly: true },
    parameters: z.object({ what: z.string() }),
    execute: async ({ what }) => {
      runs.push(what);
      started();
      return new Promise(() => undefined);
    },
  });
  return { tool, running, runs };
}

async function all(events: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const seen: AgentEvent[] = [];
  for await (const event of events) if (!event.partial) seen.push(event);
  return seen;
}

const turns = [
  { toolCalls: [{ name: 'slow_lookup', args: { what: 'trains' } }] },
  { text: 'The lookup was interrupted; ask me again.' },
];

describe('agent.resume()', () => {
  test('after a reload cut a run off mid-tool, the new page goes on with it: the open call is answered interrupted, never run again, and the model answers', async () => {
    const dbName = uniqueDb('resume-reload');
    const worker = killableWorker();
    const held = heldTool();
    const before = await start({
      model: { engine: 'scripted', turns },
      tools: [held.tool],
      dbName,
      workerUrl: worker.workerUrl,
      restart: 'never',
    });
    const sessionId = before.sessionId;
    const cut = before.send('When is the next train?');
    cut.catch(() => undefined);
    await held.running;
    // The page goes away: its worker dies with it, and nothing more is recorded.
    worker.kill();
    await expect(cut).rejects.toMatchObject({ code: 'worker-crashed' });

    const after = heldTool();
    const page = await start({ model: { engine: 'scripted', turns }, tools: [after.tool], dbName, sessionId });
    const events = await all(page.resume());
    expect(events.map((event) => event.content?.role)).toEqual(['model']);
    expect(events[0]).toMatchObject({ endReason: 'answer' });
    expect(events[0].content?.parts).toEqual([{ text: 'The lookup was interrupted; ask me again.' }]);
    // The open call was answered interrupted (when the new page opened the session), and the model read that.
    const stored = (await page.sessions.get(sessionId))!.events;
    expect(responses(stored)).toEqual([expect.objectContaining({ name: 'slow_lookup', error: 'interrupted' })]);
    // The cut-off invocation went on: the same one, not a new run.
    const message = stored.find((event) => event.author === 'user' && event.content)!;
    expect(events[0].invocationId).toBe(message.invocationId);
    expect(held.runs).toEqual(['trains']);
    expect(after.runs).toEqual([]);
    // Nothing is left to go on with.
    expect(await all(page.resume())).toEqual([]);
  });

  test('yields nothing when the last run ended: answered, stopped by the person, or waiting for approval', async () => {
    const dropTable = defineTool({
      name: 'drop_table',
      description: 'Deletes a table.',
      annotations: { destructive: true },
      parameters: z.object({}),
      execute: () => 'dropped',
    });
    const agent = await start({
      model: {
        engine: 'scripted',
        turns: [
          { text: 'Hello.' },
          { text: 'Never finished.', delayMs: 600_000 },
          { toolCalls: [{ name: 'drop_table', args: {} }] },
        ],
      },
      tools: [dropTable],
      dbName: uniqueDb('resume-nothing'),
    });
    await agent.send('Hi.');
    expect(await all(agent.resume())).toEqual([]);

    const stop = new AbortController();
    for await (const event of agent.run('Talk.', { signal: stop.signal })) if (event.author === 'user') stop.abort();
    expect(await all(agent.resume())).toEqual([]);

    const { endReason } = await agent.send('Drop it.');
    expect(endReason).toBe('awaiting-approval');
    expect(await all(agent.resume())).toEqual([]);
    expect(await agent.pendingApprovals()).toHaveLength(1);
  });
});

describe('agent.generate()', () => {
  test("runs one step of the agent's own model and records nothing in the session", async () => {
    const agent = await start({
      model: {
        engine: 'scripted',
        turns: [
          { text: 'Hi ' },
          { raw: '<tool_call>\n{"name": "add_todo", "arguments": {"text": "milk"}}\n</tool_call>' },
        ],
      },
      dbName: uniqueDb('generate'),
    });
    const deltas = [];
    for await (const delta of agent.generate({ messages: [{ role: 'user', content: 'Hi.' }], tools: [] }))
      deltas.push(delta);
    expect(deltas[0]).toEqual({ type: 'text', text: 'Hi ' });
    expect(deltas.at(-1)).toMatchObject({ type: 'finish', reason: 'stop', raw: 'Hi ' });

    const declared = {
      name: 'add_todo',
      description: 'Adds a to-do.',
      parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      annotations: {},
      needsApproval: false,
      returnDirect: false,
      longRunning: false,
      timeoutMs: 30_000,
      source: 'page' as const,
    };
    const second = [];
    for await (const delta of agent.generate({ messages: [{ role: 'user', content: 'Add milk.' }], tools: [declared] }))
      second.push(delta);
    // A call the model wrote is read, never run: there is no loop here.
    expect(second).toContainEqual({ type: 'tool-call', call: { name: 'add_todo', args: { text: 'milk' } } });
    expect((await agent.sessions.get(agent.sessionId))!.events).toEqual([]);
  });

  test('a tool name outside the one rule is refused with invalid-tool, before the model runs', async () => {
    const agent = await start({
      model: { engine: 'scripted', turns: [{ text: 'Never said.' }] },
      dbName: uniqueDb('generate-name'),
    });
    const request = {
      messages: [{ role: 'user' as const, content: 'Hi.' }],
      tools: [
        {
          name: 'drop table',
          description: '',
          parameters: { type: 'object' },
          annotations: {},
          needsApproval: false,
          returnDirect: false,
          longRunning: false,
          timeoutMs: 1,
          source: 'page' as const,
        },
      ],
    };
    await expect(agent.generate(request).next()).rejects.toMatchObject({
      code: 'invalid-tool',
      message: expect.stringContaining('"drop table"'),
    });
  });
});
