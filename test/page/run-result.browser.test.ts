// What a run did, as RunResult.calls tells it: every call with its arguments and its outcome, read from the
// run's own events, through the real worker, the real call pipeline and a real IndexedDB. And every event
// says what kind it is (`type`), for TypeScript's narrowing, also when it was stored before events had types.
import { describe, expect, test } from 'vitest';
import { defineTool, z, type AgentEvent, type RunCall } from '../../src/index';
import { agentsClosedAfterEach, storeLog, todoList, uniqueDb, type EarlierEvent } from './helpers';

const start = agentsClosedAfterEach();

function tools() {
  const { addTodo, items } = todoList();
  const clear = defineTool({
    name: 'clear_todos',
    description: 'Remove every to-do.',
    annotations: { destructive: true },
    parameters: z.object({}),
    execute: () => ({ removed: 0 }),
  });
  const broken = defineTool({
    name: 'send_mail',
    description: 'Send a mail.',
    parameters: z.object({ to: z.string() }),
    execute: () => {
      throw new Error('the mail server is down');
    },
  });
  return { tools: [addTodo, clear, broken], items };
}

/** The calls as a page reads them: name, arguments, outcome and why, without the runtime's ids. */
const summary = (calls: RunCall[]) =>
  calls.map(({ name, args, outcome, refusedBy, result, error }) => ({
    name,
    args,
    outcome,
    ...(refusedBy && { refusedBy }),
    ...(result !== undefined && { result }),
    ...(error && { code: error.code }),
  }));

describe('RunResult.calls', () => {
  test('lists each call in the run’s order with its arguments and outcome: ran, refused by validation, refused by a rule, failed, not approved', async () => {
    const { tools: all, items } = tools();
    const agent = await start({
      dbName: uniqueDb('run-calls'),
      model: {
        engine: 'scripted',
        turns: [
          { toolCalls: [{ name: 'add_todo', args: { text: 'milk' } }] },
          { toolCalls: [{ name: 'add_todo', args: { text: '' } }] },
          { toolCalls: [{ name: 'add_todo', args: { text: 'milk' } }] },
          { toolCalls: [{ name: 'send_mail', args: { to: 'ana@example.com' } }] },
          { toolCalls: [{ name: 'clear_todos', args: {} }] },
          { text: 'I added milk, mailed Ana and cleared your list.' },
        ],
      },
      tools: all,
      onApproval: () => false,
    });
    const result = await agent.send('Add milk, mail Ana, then clear my list');
    expect(items()).toEqual(['milk']);
    expect(summary(result.calls)).toEqual([
      { name: 'add_todo', args: { text: 'milk' }, outcome: 'ran', result: { id: 'todo-1' } },
      { name: 'add_todo', args: { text: '' }, outcome: 'refused', refusedBy: 'validation', code: 'invalid-arguments' },
      { name: 'add_todo', args: { text: 'milk' }, outcome: 'refused', refusedBy: 'rule', code: 'repeated-call' },
      { name: 'send_mail', args: { to: 'ana@example.com' }, outcome: 'failed', code: 'tool-failed' },
      { name: 'clear_todos', args: {}, outcome: 'not-approved', code: 'tool-rejected' },
    ]);
    // The reply claims three actions; the calls say one of them happened.
    expect(result.text).toBe('I added milk, mailed Ana and cleared your list.');
    expect(result.calls.filter((call) => call.outcome === 'ran').map((call) => call.name)).toEqual(['add_todo']);
    expect(result.calls[3]!.error!.message).toContain('the mail server is down');
    // Each id is the runtime's, as in the events.
    const made = result.events.flatMap((event) =>
      event.type === 'model'
        ? event.content.parts.flatMap((part) => ('functionCall' in part ? [part.functionCall.id] : []))
        : [],
    );
    expect(result.calls.map((call) => call.id)).toEqual(made);
  });

  test('a call that waits for a person is awaiting-approval; the decision’s own result names it with its arguments, and what became of it', async () => {
    const { tools: all } = tools();
    const agent = await start({
      dbName: uniqueDb('run-calls-paused'),
      model: {
        engine: 'scripted',
        turns: [{ toolCalls: [{ name: 'clear_todos', args: {} }] }, { text: 'Your list is empty.' }],
      },
      tools: all,
    });
    const paused = await agent.send('Clear my list');
    expect(paused.endReason).toBe('awaiting-approval');
    expect(summary(paused.calls)).toEqual([{ name: 'clear_todos', args: {}, outcome: 'awaiting-approval' }]);
    const approved = await agent.approve(paused.calls[0]!.id);
    expect(summary(approved.calls)).toEqual([
      { name: 'clear_todos', args: {}, outcome: 'ran', result: { removed: 0 } },
    ]);
    expect(approved.text).toBe('Your list is empty.');
  });

  test('a reply with no call at all has no calls: nothing it claims was done', async () => {
    const agent = await start({
      dbName: uniqueDb('run-calls-none'),
      model: { engine: 'scripted', turns: [{ text: 'The tool marked the milk as done.' }] },
    });
    const result = await agent.send('mark milk done');
    expect(result.calls).toEqual([]);
    expect(result.endReason).toBe('answer');
  });

  test('a stopped run says its call was stopped, not that it ran', async () => {
    let release!: () => void;
    const slow = defineTool({
      name: 'slow',
      description: 'Takes its time.',
      parameters: z.object({}),
      execute: (_args, ctx) =>
        new Promise((resolve, reject) => {
          release = () => resolve('done');
          ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason));
        }),
    });
    const agent = await start({
      dbName: uniqueDb('run-calls-stopped'),
      model: { engine: 'scripted', turns: [{ toolCalls: [{ name: 'slow', args: {} }] }, { text: 'Done.' }] },
      tools: [slow],
    });
    const controller = new AbortController();
    const running = agent.send('go slowly', { signal: controller.signal });
    await expect.poll(() => typeof release).toBe('function');
    controller.abort();
    const result = await running;
    expect(result.endReason).toBe('aborted');
    expect(summary(result.calls)).toEqual([{ name: 'slow', args: {}, outcome: 'stopped', code: 'aborted' }]);
  });
});

describe('event types', () => {
  test('every event of a run says its kind, and `type` narrows it: user, model (calls, then text), tool, partial', async () => {
    const { tools: all } = tools();
    const agent = await start({
      dbName: uniqueDb('event-types'),
      model: {
        engine: 'scripted',
        turns: [{ toolCalls: [{ name: 'add_todo', args: { text: 'tea' } }] }, { text: 'Added tea.' }],
      },
      tools: all,
    });
    const seen: AgentEvent[] = [];
    for await (const event of agent.run('add tea')) seen.push(event);
    const kinds = seen.filter((event) => !event.partial).map((event) => event.type);
    expect(kinds).toEqual(['user', 'model', 'tool', 'model']);
    expect(seen.filter((event) => event.partial).every((event) => event.type === 'partial')).toBe(true);
    // Narrowed by type: content is there without `?.`.
    const words = seen.flatMap((event) => (event.type === 'user' ? event.content.parts : []));
    expect(words).toEqual([{ text: 'add tea' }]);
    // The stored events are the same, with their types.
    expect((await agent.sessions.get(agent.sessionId))!.events.map((event) => event.type)).toEqual(kinds);
  });

  test('events an earlier version stored, without a type, are read with the type their fields say', async () => {
    const dbName = uniqueDb('event-types-earlier');
    const sessionId = `earlier-${crypto.randomUUID()}`;
    const base = { sessionId, invocationId: 'inv-1', author: 'assistant' };
    const events: EarlierEvent[] = [
      {
        ...base,
        id: 'e1',
        seq: 1,
        timestamp: 1,
        author: 'user',
        content: { role: 'user', parts: [{ text: 'clear' }] },
      },
      {
        ...base,
        id: 'e2',
        seq: 2,
        timestamp: 2,
        content: { role: 'model', parts: [{ functionCall: { id: 'c1', name: 'clear_todos', args: {} } }] },
      },
      {
        ...base,
        id: 'e3',
        seq: 3,
        timestamp: 3,
        actions: { requestApproval: [{ callId: 'c1', name: 'clear_todos', args: {} }] },
        endReason: 'awaiting-approval',
      },
      {
        ...base,
        id: 'e4',
        seq: 4,
        timestamp: 4,
        author: 'user',
        actions: { approval: { callId: 'c1', granted: false } },
      },
      {
        ...base,
        id: 'e5',
        seq: 5,
        timestamp: 5,
        content: {
          role: 'tool',
          parts: [{ functionResponse: { id: 'c1', name: 'clear_todos', response: null, error: 'rejected' } }],
        },
      },
      { ...base, id: 'e6', seq: 6, timestamp: 6, error: { code: 'aborted', message: 'stopped' }, endReason: 'aborted' },
    ];
    await storeLog(dbName, events);
    const { tools: all } = tools();
    const agent = await start({ dbName, sessionId, model: { engine: 'scripted', turns: [] }, tools: all });
    const stored = (await agent.sessions.get(sessionId))!.events;
    expect(stored.map((event) => event.type)).toEqual(['user', 'model', 'approval-request', 'approval', 'tool', 'end']);
  });
});
