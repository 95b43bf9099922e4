/**
 * Tool results that are small to copy but cannot be written as JSON, or only
 * as an enormous text: sparse arrays, BigInt, Map, Set, Error, RegExp, typed
 * arrays. Every one becomes a clear tool error the model reads (blaming the
 * tool), the run goes on, the session stays usable and exportable; and a
 * session that an earlier version stored with such a result still runs.
 */
import { describe, expect, test } from 'vitest';
import { AgentError, defineTool, z, type AgentEvent, type Tool } from '../../src/index';
import { openIdbSessionStore } from '../../src/session/idb-store';
import { agentsClosedAfterEach, calls, rejection, responses, uniqueDb, type EarlierEvent } from '../page/helpers';

const start = agentsClosedAfterEach();

function returning(value: () => unknown, name = 'fetch_rows'): Tool {
  return defineTool({
    name,
    description: 'Returns rows.',
    annotations: { readOnly: true },
    parameters: z.object({}),
    execute: value,
  });
}

/** A run that calls the tool once, then answers; what the model read of the call, and the export. */
async function callOnce(tool: Tool, options: { contextWindow?: number; dbName?: string } = {}) {
  const agent = await start({
    model: {
      engine: 'scripted',
      turns: [{ toolCalls: [{ name: tool.name, args: {} }] }, { text: 'done' }, { text: 'still here' }],
      ...(options.contextWindow && { contextWindow: options.contextWindow }),
    },
    tools: [tool],
    ...(options.dbName ? { dbName: options.dbName } : { storage: 'memory' as const }),
  });
  const result = await agent.send('fetch');
  const [answer] = responses(result.events);
  return { agent, result, answer: answer! };
}

/** Every line of an export is JSON again: nothing was lost to a value JSON cannot write. */
async function exportParses(agent: Awaited<ReturnType<typeof start>>): Promise<AgentEvent[]> {
  const text = await agent.sessions.export(agent.sessionId);
  return text
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => JSON.parse(line) as AgentEvent);
}

describe('results that are huge as JSON', () => {
  test('a sparse array of 100 million holes is a tool error at once, even with a window large enough to try it', async () => {
    const { result, answer } = await callOnce(
      returning(() => {
        const byId: string[] = [];
        byId[1e8] = 'x';
        return { byId };
      }),
      { contextWindow: 50_000_000 },
    );
    expect(result.endReason).toBe('answer');
    expect(answer.code).toBe('tool-result-too-large');
    expect(answer.error).toMatch(/fetch_rows.*too large/);
  });

  test('with the default window too: the model reads why, and the run ends with its answer', async () => {
    const { result, answer } = await callOnce(
      returning(() => {
        const byId: string[] = [];
        byId[1e8] = 'x';
        return { byId };
      }),
    );
    expect(result).toMatchObject({ endReason: 'answer', text: 'done' });
    expect(answer.code).toBe('tool-result-too-large');
  });

  test('a sparse array of length 2**32-1 never poisons the session: later runs, a reopened agent and export all work', async () => {
    const dbName = uniqueDb('huge-sparse');
    const { agent, result, answer } = await callOnce(
      returning(() => {
        const rows: number[] = [];
        rows[2 ** 32 - 2] = 1;
        return rows;
      }),
      { dbName },
    );
    expect(result.endReason).toBe('answer');
    expect(result.events.some((event) => event.error?.code === 'model-failed')).toBe(false);
    expect(answer.code).toBe('tool-result-too-large');
    expect((await agent.send('and now?')).text).toBe('still here');
    await exportParses(agent);

    const reopened = await start({
      model: { engine: 'scripted', turns: [{ text: 'reopened' }] },
      dbName,
      sessionId: agent.sessionId,
    });
    expect((await reopened.send('hello')).text).toBe('reopened');
  });

  test('an oversized result keeps its artifact when that fits, and an oversized artifact is dropped with a notice while the result stands', async () => {
    const big = 'x'.repeat(1_100_000);
    const first = await callOnce(returning(() => ({ content: big, artifact: { rows: 3 } })));
    expect(first.answer.code).toBe('tool-result-too-large');
    const firstTool = first.result.events.find((event) => event.content?.role === 'tool')!;
    expect(firstTool.artifacts?.[first.answer.id]).toEqual({ rows: 3 });

    const second = await callOnce(returning(() => ({ content: { rows: 3 }, artifact: big })));
    expect(second.answer).toMatchObject({ response: { rows: 3 } });
    expect(second.answer.error).toBeUndefined();
    const secondTool = second.result.events.find((event) => event.content?.role === 'tool')!;
    expect(secondTool.artifacts).toBeUndefined();
    expect(secondTool.notices?.map((notice) => notice.code)).toEqual(['artifact-dropped']);
    expect(secondTool.notices?.[0]?.message).toMatch(/fetch_rows.*artifact.*too large/);
  });
});

describe('values JSON cannot write are refused with what to do, never turned into {}', () => {
  const cases: { what: string; value: () => unknown; says: RegExp }[] = [
    { what: 'a BigInt in the content', value: () => ({ total: 10n }), says: /content\.total is a BigInt.*String\(/ },
    {
      what: 'a BigInt in the state delta',
      value: () => ({ content: 'ok', stateDelta: { total: 10n } }),
      says: /stateDelta\.total is a BigInt/,
    },
    {
      what: 'a Map',
      value: () => ({ byId: new Map([['a', 1]]) }),
      says: /content\.byId is a Map.*Object\.fromEntries/,
    },
    { what: 'a Set', value: () => new Set([1, 2]), says: /content is a Set.*\[\.\.\./ },
    {
      what: 'an Error',
      value: () => ({ failure: new Error('disk full') }),
      says: /content\.failure is an Error.*message/,
    },
    { what: 'a RegExp', value: () => ({ match: /ab+c/g }), says: /content\.match is a RegExp.*source/ },
    {
      what: 'a 10 MB Uint8Array',
      value: () => ({ bytes: new Uint8Array(10 * 1024 * 1024) }),
      says: /content\.bytes is a Uint8Array/,
    },
  ];
  for (const { what, value, says } of cases) {
    test(what, async () => {
      const { agent, result, answer } = await callOnce(returning(value));
      expect(result.endReason).toBe('answer');
      expect(answer.code).toBe('tool-result-not-json');
      expect(answer.error, answer.error).toMatch(says);
      expect(answer.response).toBeNull();
      const state = (await agent.sessions.get(agent.sessionId))!.state;
      expect(state).not.toHaveProperty('total');
      await exportParses(agent);
    });
  }

  test('a BigInt in the artifact drops the artifact, with a notice that says why; the result stands', async () => {
    const { agent, result, answer } = await callOnce(returning(() => ({ content: 'ok', artifact: { total: 10n } })));
    expect(answer).toMatchObject({ response: 'ok' });
    const toolEvent = result.events.find((event) => event.content?.role === 'tool')!;
    expect(toolEvent.artifacts).toBeUndefined();
    expect(toolEvent.notices).toEqual([
      { code: 'artifact-dropped', message: expect.stringMatching(/fetch_rows.*artifact\.total is a BigInt/) },
    ]);
    await exportParses(agent);
  });

  test('a BigInt written with ctx.setState is refused the same way', async () => {
    const tool = defineTool({
      name: 'count',
      description: 'Counts.',
      parameters: z.object({}),
      execute: (_args, ctx) => {
        ctx.setState({ total: 10n });
        return 'counted';
      },
    });
    const { agent, answer } = await callOnce(tool);
    expect(answer.code).toBe('tool-result-not-json');
    expect(answer.error).toMatch(/stateDelta\.total is a BigInt/);
    await exportParses(agent);
  });
});

describe('results that reach the session another way', () => {
  test('resolveTool with a value JSON cannot write is refused, and the call still waits for its result', async () => {
    const agent = await start({
      model: { engine: 'scripted', turns: [{ toolCalls: [{ name: 'order', args: {} }] }, { text: 'ordered' }] },
      tools: [
        defineTool({
          name: 'order',
          description: 'Answered later.',
          longRunning: true,
          parameters: z.object({}),
          execute: () => ({ status: 'waiting' }),
        }),
      ],
      storage: 'memory',
    });
    const { events } = await agent.send('order');
    const [call] = calls(events);
    const sparse: number[] = [];
    sparse[2 ** 32 - 2] = 1;
    const refused = await rejection(agent.resolveTool(call!.id, { rows: sparse }));
    expect(refused).toBeInstanceOf(AgentError);
    expect(refused.code).toBe('tool-result-too-large');
    const done = await agent.resolveTool(call!.id, { rows: [1] });
    expect(done.text).toBe('ordered');
  });

  test('a session an earlier version stored with an unreplayable result still opens and runs, and says what it dropped', async () => {
    const dbName = uniqueDb('poisoned');
    const sessionId = `poisoned-${crypto.randomUUID()}`;
    const rows: number[] = [];
    rows[2 ** 32 - 2] = 1;
    const base = { sessionId, invocationId: 'inv-1', timestamp: 1_000 };
    const events: EarlierEvent[] = [
      { ...base, id: 'e1', seq: 1, author: 'user', content: { role: 'user', parts: [{ text: 'fetch' }] } },
      {
        ...base,
        id: 'e2',
        seq: 2,
        author: 'assistant',
        content: { role: 'model', parts: [{ functionCall: { id: 'c1', name: 'fetch_rows', args: {} } }] },
      },
      {
        ...base,
        id: 'e3',
        seq: 3,
        author: 'assistant',
        content: { role: 'tool', parts: [{ functionResponse: { id: 'c1', name: 'fetch_rows', response: rows } }] },
        artifacts: { c1: { total: 10n } },
        actions: { stateDelta: { total: 10n } },
      },
      {
        ...base,
        id: 'e4',
        seq: 4,
        author: 'assistant',
        content: { role: 'model', parts: [{ text: 'fetched' }] },
        endReason: 'answer',
      },
    ];
    const store = await openIdbSessionStore({ dbName });
    await store.put(
      {
        id: sessionId,
        appName: location.origin,
        userId: 'local',
        createdAt: 1_000,
        updatedAt: 1_000,
        state: {},
        lastSeq: 4,
        openCalls: {},
      },
      events as AgentEvent[],
    );
    store.close();

    const agent = await start({
      model: { engine: 'scripted', turns: [{ text: 'still works' }] },
      dbName,
      sessionId,
    });
    const result = await agent.send('hello');
    expect(result).toMatchObject({ endReason: 'answer', text: 'still works' });
    const notices = result.events.flatMap((event) => event.notices ?? []);
    expect(notices.map((notice) => notice.code)).toContain('result-dropped');
    expect(notices.find((notice) => notice.code === 'result-dropped')!.message).toMatch(/"c1".*fetch_rows/);

    const exported = await exportParses(agent);
    const answered = exported.find((event) => event.id === 'e3')!;
    const part = answered.content!.parts[0] as { functionResponse: { response: unknown } };
    expect(part.functionResponse.response).toBeNull();
    expect(answered.notices?.map((notice) => notice.code)).toContain('result-dropped');
  });
});
