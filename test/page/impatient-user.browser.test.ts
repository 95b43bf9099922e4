/**
 * The smaller holes of issue #11, through the public API: a message the
 * worker died before storing, a streaming tool that ignores its timeout, a
 * closed agent, nonsense options, a callback that hands back a cycle, and an
 * open call older than the window a run reads.
 */
import { describe, expect, test } from 'vitest';
import { createAgent, defineTool, z, type AgentEvent } from '../../src/index';
import { sessionLockName } from '../../src/session/session-lock';
import { agentsClosedAfterEach, killableWorker, rejection, responses, sleep, uniqueDb } from './helpers';

const start = agentsClosedAfterEach();

const userTexts = (events: AgentEvent[] = []) =>
  events.flatMap((e) => (e.content?.role === 'user' ? e.content.parts.map((p) => ('text' in p ? p.text : '')) : []));

describe('a message the worker died before storing', () => {
  test('run() says it was not stored, and after the restart the agent sends it exactly once', async () => {
    const worker = killableWorker();
    const agent = await start({
      model: { engine: 'scripted', turns: [{ text: 'Noted.' }, { text: 'spare' }] },
      dbName: uniqueDb('lost-message'),
      workerUrl: worker.workerUrl,
    });
    // Another run holds the session, so this one waits before it stores anything.
    let release!: () => void;
    await new Promise<void>((held) =>
      navigator.locks.request(sessionLockName(agent.sessionId), () => {
        held();
        return new Promise<void>((done) => (release = done));
      }),
    );
    const sending = agent.send('remember the milk');
    await sleep(150);
    worker.kill();
    const error = await rejection(sending);
    expect(error.code).toBe('worker-crashed');
    expect(error.details).toMatchObject({ messageStored: false });
    release();
    await expect
      .poll(async () => userTexts((await agent.sessions.get(agent.sessionId))?.events), { timeout: 10_000 })
      .toEqual(['remember the milk']);
    await sleep(300);
    const events = (await agent.sessions.get(agent.sessionId))!.events;
    expect(userTexts(events)).toEqual(['remember the milk']);
  });

  test('a message that was stored before the worker died is said to be stored, and is not sent again', async () => {
    const worker = killableWorker();
    const agent = await start({
      model: { engine: 'scripted', turns: [{ text: 'Noted.', delayMs: 5000 }, { text: 'spare' }] },
      dbName: uniqueDb('kept-message'),
      workerUrl: worker.workerUrl,
    });
    const seen: AgentEvent[] = [];
    const running = (async () => {
      for await (const event of agent.run('remember the eggs')) seen.push(event);
    })();
    await expect.poll(() => seen.some((e) => e.content?.role === 'user')).toBe(true);
    worker.kill();
    const error = await rejection(running);
    expect(error.code).toBe('worker-crashed');
    expect(error.details).toMatchObject({ messageStored: true });
    await sleep(500);
    expect(userTexts((await agent.sessions.get(agent.sessionId))!.events)).toEqual(['remember the eggs']);
  });
});

describe('a streaming tool', () => {
  test('that never pauses between chunks still stops at its timeoutMs, and the page gets its turn between chunks', async () => {
    let produced = 0;
    let timerFiredDuringStream = false;
    let streaming = true;
    const flood = defineTool({
      name: 'flood',
      description: 'Streams numbers forever.',
      timeoutMs: 300,
      parameters: z.object({}),
      execute: async function* () {
        setTimeout(() => (timerFiredDuringStream = streaming), 0);
        try {
          for (let i = 0; i < 200_000; i++) {
            produced++;
            yield i;
          }
        } finally {
          streaming = false;
        }
      },
    });
    const agent = await start({
      model: { engine: 'scripted', turns: [{ toolCalls: [{ name: 'flood', args: {} }] }, { text: 'stopped' }] },
      tools: [flood],
      storage: 'memory',
    });
    const { events } = await agent.send('flood');
    expect(responses(events)[0]).toMatchObject({ name: 'flood' });
    expect(responses(events)[0]!.error).toMatch(/timeoutMs|did not (finish|answer) within/);
    expect(produced).toBeLessThan(200_000);
    expect(timerFiredDuringStream).toBe(true);
  });
});

describe('a closed agent', () => {
  test('send() after close() rejects with closed', async () => {
    const agent = await start({ model: { engine: 'scripted', turns: [{ text: 'hi' }] }, storage: 'memory' });
    await agent.close();
    const error = await rejection(agent.send('hello'));
    expect(error.code).toBe('closed');
    expect(error.message).toMatch(/createAgent/);
  });

  test('close() during a run ends that run with closed', async () => {
    const agent = await start({
      model: { engine: 'scripted', turns: [{ text: 'slow', delayMs: 3000 }] },
      storage: 'memory',
    });
    const sending = agent.send('hello');
    await sleep(200);
    await agent.close();
    expect((await rejection(sending)).code).toBe('closed');
  });
});

describe('nonsense options', () => {
  const model = { engine: 'scripted' as const, turns: [] };
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ['maxToolCallsPerStep: NaN', { maxToolCallsPerStep: Number.NaN }, /maxToolCallsPerStep/],
    ["storage: 'bogus'", { storage: 'bogus' }, /storage/],
    ["restart: 'bogus'", { restart: 'bogus' }, /restart/],
    ["callbacks: 'x'", { callbacks: 'x' }, /callbacks/],
    ['agents: [{}]', { agents: [{}] }, /agents\[0\]\.name/],
    ["tools: 'x'", { tools: 'x' }, /tools/],
    ['tools: [null]', { tools: [null] }, /tools\[0\]/],
    ['tools: [{}]', { tools: [{}] }, /tools\[0\]/],
    ["signal: 'x'", { signal: 'x' }, /signal/],
    [
      'a function inside a scripted turn',
      { model: { engine: 'scripted', turns: [{ text: () => 'x' }] } },
      /model\.turns\[0\]/,
    ],
    ["workerUrl: 'javascript:'", { workerUrl: 'javascript:alert(1)' }, /workerUrl/],
    ['toolChoice: 7', { toolChoice: 7 }, /toolChoice/],
  ];
  test.each(cases)('%s is refused up front with invalid-options naming the field', async (_label, options, field) => {
    const error = await rejection(createAgent({ model, storage: 'memory', ...options } as never));
    expect(error.name).toBe('AgentError');
    expect(error.code).toBe('invalid-options');
    expect(error.message).toMatch(field);
  });
});

describe('a callback that hands back a cycle', () => {
  test('is refused at the boundary with a clear error, and the session stays usable', async () => {
    const dbName = uniqueDb('cyclic');
    let poison = true;
    const agent = await start({
      model: { engine: 'scripted', turns: [{ text: 'fine' }, { text: 'still fine' }] },
      callbacks: {
        beforeModel: () => {
          if (!poison) return undefined;
          poison = false;
          const args: Record<string, unknown> = { a: 1 };
          args.self = args;
          return { text: 'x', toolCalls: [{ name: 'look', args }] };
        },
      },
      dbName,
    });
    const first = await agent.send('one');
    expect(first.error?.code).toBe('callback-failed');
    expect(first.error?.message).toMatch(/beforeModel/);
    expect(first.error?.message).toMatch(/cycle|circular/i);
    expect((await agent.send('two')).text).toBe('fine');
    const again = await start({
      model: { engine: 'scripted', turns: [{ text: 'reopened' }] },
      dbName,
      sessionId: agent.sessionId,
    });
    expect((await again.send('three')).text).toBe('reopened');
  });
});

describe('an open call older than the window a run reads', () => {
  test('is answered "interrupted" when the session next runs', async () => {
    const dbName = uniqueDb('old-open-call');
    const base = { sessionId: 'x', invocationId: 'inv-0', timestamp: Date.now() };
    const events: Record<string, unknown>[] = [
      { ...base, id: 'e1', seq: 1, author: 'user', content: { role: 'user', parts: [{ text: 'start' }] } },
      {
        ...base,
        id: 'e2',
        seq: 2,
        author: 'assistant',
        content: { role: 'model', parts: [{ functionCall: { id: 'old-call', name: 'look', args: {} } }] },
      },
    ];
    for (let seq = 3; seq <= 1_200; seq++) {
      events.push({
        ...base,
        id: `e${seq}`,
        seq,
        author: 'user',
        content: { role: 'user', parts: [{ text: `n${seq}` }] },
      });
    }
    const header = {
      type: 'session',
      format: 'inpage-agent/session@1',
      id: 'x',
      appName: location.origin,
      userId: 'local',
      createdAt: base.timestamp,
      updatedAt: base.timestamp,
      eventCount: events.length,
    };
    const maker = await start({ model: { engine: 'scripted', turns: [] }, dbName });
    const imported = await maker.sessions.import([header, ...events].map((line) => JSON.stringify(line)).join('\n'));
    const agent = await start({
      model: { engine: 'scripted', turns: [{ text: 'ok' }] },
      dbName,
      sessionId: imported,
    });
    await agent.send('hello');
    const stored = (await agent.sessions.get(imported))!.events;
    expect(responses(stored).filter((r) => r.id === 'old-call')).toEqual([
      expect.objectContaining({ id: 'old-call', error: 'interrupted' }),
    ]);
  });
});
