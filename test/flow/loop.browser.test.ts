import { describe, expect, test } from 'vitest';
import { defineTool, fromMCPTool, z, type AgentEvent } from '../../src/index';
import { agentsClosedAfterEach, calls, responses, runtimeId, todoList, uniqueDb } from '../page/helpers';

const start = agentsClosedAfterEach();
function readOnlyProbe(name: string, log: string[], delayMs = 50) {
  return defineTool({
    name,
    description: `Reads ${name}.`,
    annotations: { readOnly: true },
    parameters: z.object({}),
    execute: async () => {
      log.push(`start ${name}`);
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      log.push(`end ${name}`);
      return name.toUpperCase();
    },
  });
}

function clearAll(log: string[]) {
  return defineTool({
    name: 'clear_all',
    description: 'Delete every item.',
    annotations: { destructive: true },
    parameters: z.object({}),
    execute: async () => {
      log.push('cleared');
      return { cleared: true };
    },
  });
}

describe('function calls', () => {
  test('three read-only calls of one turn run at the same time and are answered by one merged event', async () => {
    const log: string[] = [];
    const agent = await start({
      model: {
        engine: 'scripted',
        turns: [
          {
            toolCalls: [
              { name: 'a', args: {} },
              { name: 'b', args: {} },
              { name: 'c', args: {} },
            ],
          },
          { text: 'ok' },
        ],
      },
      tools: [readOnlyProbe('a', log), readOnlyProbe('b', log), readOnlyProbe('c', log)],
      storage: 'memory',
    });
    const { events } = await agent.send('read everything');
    expect(log.slice(0, 3)).toEqual(['start a', 'start b', 'start c']);
    const toolEvents = events.filter((event) => event.content?.role === 'tool');
    expect(toolEvents).toHaveLength(1);
    expect(responses(events).map((r) => r.response)).toEqual(['A', 'B', 'C']);
  });

  test("calls that are not all read-only run one after another in the model's order", async () => {
    const log: string[] = [];
    const todo = todoList();
    const agent = await start({
      model: {
        engine: 'scripted',
        turns: [
          {
            toolCalls: [
              { name: 'a', args: {} },
              { name: 'add_todo', args: { text: 'x' } },
              { name: 'b', args: {} },
            ],
          },
          { text: 'ok' },
        ],
      },
      tools: [readOnlyProbe('a', log), todo.addTodo, readOnlyProbe('b', log)],
      storage: 'memory',
    });
    await agent.send('go');
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b']);
    expect(todo.items()).toEqual(['x']);
  });

  test('calls without ids get unique ids that the responses answer', async () => {
    const log: string[] = [];
    const agent = await start({
      model: {
        engine: 'scripted',
        turns: [
          {
            toolCalls: [
              { name: 'a', args: {} },
              { name: 'a', args: {} },
            ],
          },
          { text: 'ok' },
        ],
      },
      tools: [readOnlyProbe('a', log, 1)],
      storage: 'memory',
    });
    const { events } = await agent.send('go');
    const ids = calls(events).map((call) => call.id);
    expect(new Set(ids).size).toBe(2);
    expect(responses(events).map((r) => r.id)).toEqual(ids);
  });

  test('an unknown tool is answered with the names that exist, and the model can correct itself', async () => {
    const todo = todoList();
    const agent = await start({
      model: {
        engine: 'scripted',
        turns: [
          { toolCalls: [{ name: 'add_todos', args: { text: 'x' } }] },
          { toolCalls: [{ name: 'add_todo', args: { text: 'x' } }] },
          { text: 'ok' },
        ],
      },
      tools: [todo.addTodo],
      storage: 'memory',
    });
    const { events } = await agent.send('go');
    expect(responses(events)[0]!.error).toMatch(/no tool named "add_todos".*add_todo/);
    expect(todo.items()).toEqual(['x']);
  });

  test('more calls in one step than maxToolCallsPerStep ends the run with that reason and runs none', async () => {
    const todo = todoList();
    const agent = await start({
      model: {
        engine: 'scripted',
        turns: [{ toolCalls: [1, 2, 3].map((n) => ({ name: 'add_todo', args: { text: `t${n}` } })) }],
      },
      tools: [todo.addTodo],
      maxToolCallsPerStep: 2,
      storage: 'memory',
    });
    const { endReason, events } = await agent.send('go');
    expect(endReason).toBe('max-tool-calls');
    expect(todo.items()).toEqual([]);
    expect(responses(events)).toHaveLength(3);
  });

  test('maxSteps ends a run that keeps calling tools', async () => {
    const todo = todoList();
    const agent = await start({
      model: {
        engine: 'scripted',
        // Each call new (the same call again is the repeat guard's: repeated-calls.browser.test.ts).
        turns: Array.from({ length: 5 }, (_, i) => ({
          toolCalls: [{ name: 'add_todo', args: { text: `again ${i}` } }],
        })),
      },
      tools: [todo.addTodo],
      maxSteps: 3,
      storage: 'memory',
    });
    const { endReason, error } = await agent.send('loop');
    expect(endReason).toBe('max-steps');
    expect(error?.message).toMatch(/maxSteps/);
    expect(todo.items()).toHaveLength(3);
  });

  test("a returnDirect tool's output is the final answer, without another model step", async () => {
    const lookup = defineTool({
      name: 'lookup',
      description: 'Looks up the answer.',
      parameters: z.object({}),
      returnDirect: true,
      execute: () => 'forty-two',
    });
    const agent = await start({
      model: { engine: 'scripted', turns: [{ toolCalls: [{ name: 'lookup', args: {} }] }] },
      tools: [lookup],
      storage: 'memory',
    });
    const { text, endReason } = await agent.send('answer?');
    expect(endReason).toBe('return-direct');
    expect(text).toBe('forty-two');
  });

  test('a tool result with finalAnswer ends the run too, and its state delta and artifact are recorded', async () => {
    const tool = defineTool({
      name: 'finish',
      description: 'Finishes.',
      parameters: z.object({}),
      execute: () => ({
        content: 'done',
        artifact: { rows: [1, 2] },
        stateDelta: { progress: 'finished' },
        finalAnswer: true,
      }),
    });
    const agent = await start({
      model: { engine: 'scripted', turns: [{ toolCalls: [{ name: 'finish', args: {}, id: 'c1' }] }] },
      tools: [tool],
      storage: 'memory',
    });
    const { endReason, events } = await agent.send('finish');
    expect(endReason).toBe('return-direct');
    const toolEvent = events.find((event) => event.content?.role === 'tool')!;
    expect(toolEvent.artifacts).toEqual({ [runtimeId(events, 'c1')]: { rows: [1, 2] } });
    expect((await agent.sessions.get(agent.sessionId))!.state.progress).toBe('finished');
  });
});

describe('a fatal tool error', () => {
  test('a tool that throws an error marked fatal ends the run with that error after its answer is recorded', async () => {
    const checkout = defineTool({
      name: 'checkout',
      description: 'Pays for the cart.',
      parameters: z.object({}),
      execute: () => {
        throw Object.assign(new Error('the cart was emptied in another tab'), { fatal: true });
      },
    });
    const agent = await start({
      model: { engine: 'scripted', turns: [{ toolCalls: [{ name: 'checkout', args: {} }] }, { text: 'never' }] },
      tools: [checkout],
      storage: 'memory',
    });
    const { events, endReason, error } = await agent.send('pay');
    expect(endReason).toBe('error');
    expect(error?.message).toMatch(/A tool stopped the run: .*cart was emptied/);
    expect(responses(events)[0]!.error).toMatch(/cart was emptied/);
    expect(events.filter((event) => event.content?.role === 'model')).toHaveLength(1);
  });
});

describe('callbacks', () => {
  test('beforeModel may answer instead of the model; afterModel may replace the answer', async () => {
    const first = await start({
      model: { engine: 'scripted', turns: [] },
      storage: 'memory',
      callbacks: { beforeModel: [() => undefined, () => 'from the cache'] },
    });
    expect((await first.send('hi')).text).toBe('from the cache');
    const second = await start({
      model: { engine: 'scripted', turns: [{ text: 'raw answer' }] },
      storage: 'memory',
      callbacks: { afterModel: (response) => ({ text: response.text.toUpperCase(), toolCalls: [] }) },
    });
    expect((await second.send('hi')).text).toBe('RAW ANSWER');
  });

  test('beforeTool may change the arguments or answer without running the tool; afterTool may replace the result', async () => {
    const todo = todoList();
    const agent = await start({
      model: {
        engine: 'scripted',
        turns: [
          {
            toolCalls: [
              { name: 'add_todo', args: { text: 'milk' } },
              { name: 'add_todo', args: { text: 'skip me' } },
            ],
          },
          { text: 'ok' },
        ],
      },
      tools: [todo.addTodo],
      storage: 'memory',
      callbacks: {
        beforeTool: ({ args }) => {
          const { text } = args as { text: string };
          if (text === 'skip me') return { result: 'skipped' };
          return { args: { text: `${text} (oat)` } };
        },
        afterTool: ({ result }) =>
          result && typeof result === 'object' ? { ...(result as object), checked: true } : undefined,
      },
    });
    const { events } = await agent.send('go');
    expect(todo.items()).toEqual(['milk (oat)']);
    expect(responses(events).map((r) => r.response)).toEqual([{ id: 'todo-1', checked: true }, 'skipped']);
  });

  test('a callback that throws ends the run with an error event instead of a stuck run', async () => {
    const agent = await start({
      model: { engine: 'scripted', turns: [{ text: 'never seen' }] },
      storage: 'memory',
      callbacks: {
        beforeModel: () => {
          throw new Error('cache offline');
        },
      },
    });
    const { endReason, error } = await agent.send('hi');
    expect(endReason).toBe('error');
    expect(error?.code).toBe('callback-failed');
    expect(error?.message).toMatch(/beforeModel.*cache offline/);
  });

  test('onEvent sees every event of a run', async () => {
    const seen: AgentEvent[] = [];
    const agent = await start({
      model: { engine: 'scripted', turns: [{ text: 'hello' }] },
      storage: 'memory',
      callbacks: { onEvent: (event) => void seen.push(event) },
    });
    const { events } = await agent.send('hi');
    expect(seen.filter((event) => !event.partial).map((event) => event.id)).toEqual(events.map((event) => event.id));
  });
});

describe('approval', () => {
  test('a denied approval never runs the tool, and the model reads the rejection', async () => {
    const log: string[] = [];
    const agent = await start({
      model: {
        engine: 'scripted',
        turns: [{ toolCalls: [{ name: 'clear_all', args: {} }] }, { text: 'I left your list alone.' }],
      },
      tools: [clearAll(log)],
      storage: 'memory',
      onApproval: async () => false,
    });
    const { events, text } = await agent.send('clear everything');
    expect(log).toEqual([]);
    expect(events.some((event) => event.actions?.approval?.granted === false)).toBe(true);
    expect(responses(events)[0]!.error).toMatch(/rejected/);
    expect(text).toBe('I left your list alone.');
  });

  test('without onApproval the run pauses; approve() after a page reload runs the tool and continues', async () => {
    const log: string[] = [];
    const dbName = uniqueDb('approval');
    const turns = [{ toolCalls: [{ name: 'clear_all', args: {}, id: 'call-clear' }] }, { text: 'Cleared.' }];
    const before = await start({ model: { engine: 'scripted', turns }, tools: [clearAll(log)], dbName });
    const paused = await before.send('clear everything');
    expect(paused.endReason).toBe('awaiting-approval');
    const clearId = runtimeId(paused.events, 'call-clear');
    expect(paused.events.at(-1)!.actions!.requestApproval).toEqual([{ callId: clearId, name: 'clear_all', args: {} }]);
    expect(log).toEqual([]);
    const sessionId = before.sessionId;
    await before.close();

    // The "reload": a new agent on the same session, whose model continues from the second turn.
    const after = await start({
      model: { engine: 'scripted', turns: turns.slice(1) },
      tools: [clearAll(log)],
      dbName,
      sessionId,
    });
    expect(await after.pendingApprovals()).toEqual([{ callId: clearId, name: 'clear_all', args: {} }]);
    const resumed = await after.approve(clearId);
    expect(log).toEqual(['cleared']);
    expect(resumed.text).toBe('Cleared.');
    expect(await after.pendingApprovals()).toEqual([]);
  });

  test("reject() with a reason gives the model that reason as the tool's answer", async () => {
    const log: string[] = [];
    const agent = await start({
      model: {
        engine: 'scripted',
        turns: [{ toolCalls: [{ name: 'clear_all', args: {}, id: 'c' }] }, { text: 'OK, not clearing.' }],
      },
      tools: [clearAll(log)],
      storage: 'memory',
    });
    const paused = await agent.send('clear');
    const { events, text } = await agent.reject(runtimeId(paused.events, 'c'), 'I still need those');
    expect(responses(events)[0]!.error).toMatch(/I still need those/);
    expect(text).toBe('OK, not clearing.');
    expect(log).toEqual([]);
  });
});

describe('approval rules', () => {
  test('needsApproval as a function asks only for the calls it flags', async () => {
    const spent: number[] = [];
    const pay = defineTool({
      name: 'pay',
      description: 'Pays an amount.',
      parameters: z.object({ amount: z.number() }),
      needsApproval: ({ amount }) => amount > 100,
      execute: ({ amount }) => void spent.push(amount),
    });
    const asked: string[] = [];
    const agent = await start({
      model: {
        engine: 'scripted',
        turns: [
          {
            toolCalls: [
              { name: 'pay', args: { amount: 5 } },
              { name: 'pay', args: { amount: 500 } },
            ],
          },
          { text: 'ok' },
        ],
      },
      tools: [pay],
      storage: 'memory',
      onApproval: (call) => {
        asked.push(JSON.stringify(call.args));
        return false;
      },
    });
    await agent.send('pay both');
    expect(asked).toEqual(['{"amount":500}']);
    expect(spent).toEqual([5]);
  });

  test("an MCP tool without hints is destructive by MCP's defaults, so it waits for approval", async () => {
    const ran: unknown[] = [];
    const remote = fromMCPTool(
      {
        name: 'delete_file',
        description: 'Deletes a file.',
        inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
      },
      async (args) => void ran.push(args),
    );
    const agent = await start({
      model: {
        engine: 'scripted',
        turns: [{ toolCalls: [{ name: 'delete_file', args: { path: '/tmp/x' }, id: 'd1' }] }],
      },
      tools: [remote],
      storage: 'memory',
    });
    const { endReason, events } = await agent.send('delete it');
    expect(endReason).toBe('awaiting-approval');
    expect(ran).toEqual([]);
    expect(await agent.pendingApprovals()).toEqual([
      { callId: runtimeId(events, 'd1'), name: 'delete_file', args: { path: '/tmp/x' } },
    ]);
  });

  test('tools registered and unregistered at run time are offered from the next step on', async () => {
    const todo = todoList();
    const agent = await start({
      model: {
        engine: 'scripted',
        turns: [
          { text: 'one' },
          { toolCalls: [{ name: 'add_todo', args: { text: 'late' } }] },
          { text: 'two' },
          { text: 'three' },
        ],
      },
      storage: 'memory',
    });
    const first = await agent.send('hi');
    expect(first.events.find((event) => event.content?.role === 'model')!.offeredTools).toEqual([]);
    await agent.registerTool(todo.addTodo);
    await agent.send('add');
    expect(todo.items()).toEqual(['late']);
    await agent.unregisterTool('add_todo');
    const last = await agent.send('bye');
    expect(last.events.find((event) => event.content?.role === 'model')!.offeredTools).toEqual([]);
  });

  test('a run sent right after a tool change the page did not await sees the change, as written', async () => {
    const todo = todoList();
    const agent = await start({
      model: { engine: 'scripted', turns: [{ text: 'one' }, { text: 'two' }] },
      storage: 'memory',
    });
    const offered = (events: AgentEvent[]) => events.find((event) => event.content?.role === 'model')!.offeredTools;
    void agent.registerTool(todo.addTodo);
    expect(offered((await agent.send('add')).events)).toEqual(['add_todo']);
    void agent.unregisterTool('add_todo');
    expect(offered((await agent.send('bye')).events)).toEqual([]);
  });
});

describe('moving on', () => {
  test('a new message while a call waits for approval rejects that call, which never runs, and the conversation goes on', async () => {
    const log: string[] = [];
    const agent = await start({
      model: {
        engine: 'scripted',
        turns: [{ toolCalls: [{ name: 'clear_all', args: {}, id: 'c' }] }, { text: 'Never mind then.' }],
      },
      tools: [clearAll(log)],
      storage: 'memory',
    });
    const paused = await agent.send('clear');
    expect(paused.endReason).toBe('awaiting-approval');
    const clearId = runtimeId(paused.events, 'c');
    const { events, text } = await agent.send('actually, keep everything');
    expect(responses(events)).toEqual([
      { id: clearId, name: 'clear_all', response: null, error: expect.stringMatching(/Not run/) },
    ]);
    expect(text).toBe('Never mind then.');
    expect(log).toEqual([]);
    expect(await agent.pendingApprovals()).toEqual([]);
    await expect(agent.approve(clearId)).rejects.toMatchObject({ code: 'approval-not-pending' });
  });
});

describe('long-running tools', () => {
  test('the run ends with the call pending; resolveTool later answers it and the conversation continues', async () => {
    const ask = defineTool({
      name: 'ask_user',
      description: 'Shows a form and waits for the person.',
      parameters: z.object({ question: z.string() }),
      longRunning: true,
      execute: ({ question }) => ({ shown: question }),
    });
    const agent = await start({
      model: {
        engine: 'scripted',
        turns: [
          { toolCalls: [{ name: 'ask_user', args: { question: 'Which day?' }, id: 'form-1' }] },
          { text: 'Booked for Tuesday.' },
        ],
      },
      tools: [ask],
      storage: 'memory',
    });
    const first = await agent.send('book a table');
    expect(first.endReason).toBe('long-running');
    const formId = runtimeId(first.events, 'form-1');
    expect(first.events.at(-1)!.longRunningToolIds).toEqual([formId]);
    const second = await agent.resolveTool(formId, { day: 'Tuesday' });
    expect(responses(second.events)).toEqual([{ id: formId, name: 'ask_user', response: { day: 'Tuesday' } }]);
    expect(second.text).toBe('Booked for Tuesday.');
  });
});

describe('agent transfer', () => {
  test('a transfer hands the conversation to another agent, and escalate hands it back', async () => {
    const agent = await start({
      model: {
        engine: 'scripted',
        turns: [
          { toolCalls: [{ name: 'transfer_to_agent', args: { agent_name: 'billing' } }] },
          { toolCalls: [{ name: 'escalate', args: { reason: 'not a billing question' } }] },
          { text: 'Back with the front desk.' },
        ],
      },
      agents: [
        { name: 'desk', instructions: 'Route requests.', description: 'front desk' },
        { name: 'billing', instructions: 'Answer billing questions.', description: 'invoices and payments' },
      ],
      rootAgent: 'desk',
      storage: 'memory',
    });
    const { events, text } = await agent.send('where is my parcel?');
    const authors = events.filter((event) => event.content?.role === 'model').map((event) => event.author);
    expect(authors).toEqual(['desk', 'billing', 'desk']);
    expect(events.find((event) => event.actions?.transferToAgent === 'billing')).toBeTruthy();
    expect(events.find((event) => event.actions?.escalate)!.actions!.transferToAgent).toBe('desk');
    expect(text).toBe('Back with the front desk.');
    const offered = events.filter((event) => event.content?.role === 'model').map((event) => event.offeredTools);
    expect(offered[0]).toEqual(['transfer_to_agent']);
    expect(offered[1]).toEqual(['transfer_to_agent', 'escalate']);
  });

  test('a transfer to an agent that does not exist is answered with the names that do', async () => {
    const agent = await start({
      model: {
        engine: 'scripted',
        turns: [{ toolCalls: [{ name: 'transfer_to_agent', args: { agent_name: 'sales' } }] }, { text: 'ok' }],
      },
      agents: [
        { name: 'desk', instructions: '' },
        { name: 'billing', instructions: '' },
      ],
      storage: 'memory',
    });
    const { events } = await agent.send('hi');
    expect(responses(events)[0]!.error).toMatch(/billing/);
  });
});

describe('abort', () => {
  test('an abort during a slow tool that ignores its signal ends the run at once; the late result is recorded as late', async () => {
    let finish!: () => void;
    const slow = defineTool({
      name: 'slow',
      description: 'Takes its time and ignores abort.',
      parameters: z.object({}),
      execute: () => new Promise<string>((resolve) => (finish = () => resolve('late value'))),
    });
    const dbName = uniqueDb('abort');
    const agent = await start({
      model: { engine: 'scripted', turns: [{ toolCalls: [{ name: 'slow', args: {}, id: 's1' }] }, { text: 'never' }] },
      tools: [slow],
      dbName,
    });
    const controller = new AbortController();
    const seen: AgentEvent[] = [];
    const run = (async () => {
      for await (const event of agent.run('go', { signal: controller.signal })) if (!event.partial) seen.push(event);
    })();
    await vi_waitFor(() => finish !== undefined);
    controller.abort();
    await run;
    const last = seen.at(-1)!;
    expect(last.endReason).toBe('aborted');
    expect(responses(seen)[0]!.error).toMatch(/aborted/);
    finish();
    await vi_waitFor(async () => (await agent.sessions.get(agent.sessionId))!.events.some((event) => event.late));
    const stored = (await agent.sessions.get(agent.sessionId))!.events;
    const late = stored.find((event) => event.late)!;
    expect(late.content!.parts[0]).toMatchObject({
      functionResponse: { id: runtimeId(seen, 's1'), response: 'late value' },
    });
    // The late answer is never used: the next run's model sees the aborted response only.
    expect(stored.filter((event) => event.endReason === 'answer')).toHaveLength(0);
  });
});

describe('the context window', () => {
  test('old turns are trimmed to fit, and the model event says how many were left out', async () => {
    const long = 'lorem ipsum dolor sit amet '.repeat(40);
    const agent = await start({
      model: { engine: 'scripted', turns: Array.from({ length: 6 }, () => ({ text: long })), contextWindow: 1200 },
      storage: 'memory',
    });
    for (let i = 0; i < 5; i++) await agent.send(`question ${i}: ${long}`);
    const { events } = await agent.send('last question');
    const model = events.find((event) => event.content?.role === 'model')!;
    expect(model.contextTrimmed).toBeGreaterThan(0);
  });

  test('a step that cannot fit even after trimming ends with context-overflow and what to do', async () => {
    const agent = await start({
      model: { engine: 'scripted', turns: [{ text: 'never' }], contextWindow: 64 },
      instructions: 'be brief '.repeat(200),
      storage: 'memory',
    });
    const { endReason, error } = await agent.send('hi');
    expect(endReason).toBe('error');
    expect(error?.code).toBe('context-overflow');
    expect(error?.message).toMatch(/Shorten the instructions/);
  });
});

describe('telemetry', () => {
  test('model and tool events carry timing, model events usage and offered tools; stats() sums up per tool', async () => {
    const log: string[] = [];
    const todo = todoList();
    const agent = await start({
      model: {
        engine: 'scripted',
        turns: [
          {
            toolCalls: [
              { name: 'add_todo', args: { text: 'x' } },
              { name: 'add_todo', args: {} },
            ],
          },
          { text: 'ok' },
        ],
      },
      tools: [todo.addTodo, readOnlyProbe('a', log)],
      storage: 'memory',
    });
    const { events } = await agent.send('go');
    const model = events.find((event) => event.content?.role === 'model')!;
    expect(model.timing!.ms).toBeGreaterThanOrEqual(0);
    expect(model.usage!.promptTokens).toBeGreaterThan(0);
    expect(model.usage!.completionTokens).toBeGreaterThan(0);
    expect(model.offeredTools).toEqual(['add_todo', 'a']);
    expect(events.find((event) => event.content?.role === 'tool')!.timing).toBeDefined();
    const stats = await agent.stats();
    expect(stats.tools.add_todo).toMatchObject({ calls: 2, errors: 1 });
    expect(stats.modelSteps).toBe(2);
  });
});

async function vi_waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
