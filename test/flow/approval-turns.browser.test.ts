/**
 * Without onApproval the run pauses, and a person decides each waiting call
 * of a turn later, one by one, in any order (agent.approve / agent.reject).
 * A turn of 2–4 calls, any of which may need approval, must then end exactly
 * as it would with onApproval: every approved call and every call that needs
 * no approval runs once, a rejected call never runs, each call is answered
 * once, and the model goes on. With memory and with IndexedDB; with calls as
 * a model writes them (raw text) and as structured calls.
 */
import { describe, expect, test } from 'vitest';
import { defineTool, z, type ScriptedTurn } from '../../src/index';
import { agentsClosedAfterEach, calls, responses, uniqueDb } from '../page/helpers';

const start = agentsClosedAfterEach();

/** One turn's shape: which calls need approval, what the person says to each, and in which order. */
interface Case {
  /** One letter per call: A (needs approval) or r (runs without). */
  shape: string;
  /** One letter per asked call, in the turn's order: y (approve) or n (reject). */
  answers: string;
  /** The order the person decides the asked calls in (indexes into the asked calls). */
  order: number[];
  raw: boolean;
}

function cases(): Case[] {
  const shapes = ['rA', 'Ar', 'AA', 'rrA', 'rAr', 'Arr', 'rAA', 'ArA', 'AAr', 'AAA', 'rrrA', 'ArAr', 'rAAA', 'AAAA'];
  const out: Case[] = [];
  for (const shape of shapes) {
    const asked = [...shape].filter((c) => c === 'A').length;
    const alternating = (first: string) =>
      [...Array(asked).keys()].map((i) => (i % 2 === 0 ? first : first === 'y' ? 'n' : 'y')).join('');
    const forward = [...Array(asked).keys()];
    const orders = asked > 1 ? [forward, [...forward].reverse()] : [forward];
    for (const answers of [alternating('y'), alternating('n')])
      for (const order of orders) out.push({ shape, answers, order, raw: out.length % 2 === 1 });
  }
  return out;
}

function toolsFor(log: string[]) {
  const tools = [];
  for (let i = 0; i < 4; i++) {
    for (const asks of [true, false]) {
      const name = `${asks ? 'ask' : 'run'}_${i}`;
      tools.push(
        defineTool({
          name,
          description: `Does step ${i}${asks ? ' (asks first)' : ''}.`,
          needsApproval: asks,
          parameters: z.object({ n: z.number() }),
          execute: ({ n }) => {
            log.push(`${name}#${n}`);
            return { did: name };
          },
        }),
      );
    }
  }
  return tools;
}

function callNames(c: Case): string[] {
  return [...c.shape].map((letter, i) => `${letter === 'A' ? 'ask' : 'run'}_${i}`);
}

function turnsFor(all: Case[]): ScriptedTurn[] {
  return all.flatMap((c, index): ScriptedTurn[] => {
    const names = callNames(c);
    const callTurn: ScriptedTurn = c.raw
      ? {
          raw: names
            .map((name) => `<tool_call>{"name": "${name}", "arguments": {"n": ${index}}}</tool_call>`)
            .join('\n'),
        }
      : { toolCalls: names.map((name) => ({ name, args: { n: index } })) };
    return [callTurn, { text: `case ${index} done` }];
  });
}

const label = (c: Case, index: number) =>
  `case ${index}: ${c.shape}, answers ${c.answers}, order ${c.order.join('')}, ${c.raw ? 'raw' : 'structured'}`;

describe.each(['memory', 'indexeddb'] as const)('a turn paused for approval, with %s storage', (storage) => {
  for (const size of [2, 3, 4]) {
    test(`turns of ${size} calls: each waiting call is decided one by one, in any order, and the turn ends as with onApproval`, async () => {
      const all = cases().filter((c) => c.shape.length === size);
      const log: string[] = [];
      const agent = await start({
        model: { engine: 'scripted', turns: turnsFor(all) },
        tools: toolsFor(log),
        storage,
        ...(storage === 'indexeddb' && { dbName: uniqueDb('approval-turns') }),
      });
      for (const [index, c] of all.entries()) {
        const where = label(c, index);
        const names = callNames(c);
        const sent = await agent.send(`case ${index}`);
        expect(sent.endReason, where).toBe('awaiting-approval');
        const made = calls(sent.events);
        expect(
          made.map((call) => call.name),
          where,
        ).toEqual(names);
        const asked = await agent.pendingApprovals();
        const askedIds = made.filter((call) => call.name.startsWith('ask')).map((call) => call.id);
        expect(
          asked.map((a) => a.callId),
          where,
        ).toEqual(askedIds);
        expect(
          log.filter((entry) => entry.endsWith(`#${index}`)),
          `${where}: nothing runs before every decision`,
        ).toEqual([]);

        let last: Awaited<ReturnType<typeof agent.approve>> | undefined;
        for (const [step, which] of c.order.entries()) {
          const id = askedIds[which]!;
          last = c.answers[which] === 'y' ? await agent.approve(id) : await agent.reject(id, `no to ${which}`);
          const waiting = c.order.slice(step + 1).map((w) => askedIds[w]);
          expect(
            (await agent.pendingApprovals()).map((a) => a.callId).sort(),
            `${where}: still waiting after decision ${step}`,
          ).toEqual([...waiting].sort());
          if (waiting.length) {
            expect(last.endReason, where).toBe('awaiting-approval');
            expect(
              log.filter((entry) => entry.endsWith(`#${index}`)),
              `${where}: nothing runs yet`,
            ).toEqual([]);
          }
        }
        expect(last?.endReason, where).toBe('answer');
        expect(last?.text, where).toBe(`case ${index} done`);

        const approved = new Set(askedIds.filter((_, i) => c.answers[i] === 'y'));
        const shouldRun = made.filter((call) => call.name.startsWith('run') || approved.has(call.id));
        expect(
          log.filter((entry) => entry.endsWith(`#${index}`)),
          `${where}: what ran`,
        ).toEqual(shouldRun.map((call) => `${call.name}#${index}`));

        const stored = (await agent.sessions.get(agent.sessionId))!.events;
        const answers = responses(stored).filter((r) => made.some((call) => call.id === r.id));
        expect(answers.map((r) => r.id).sort(), `${where}: every call answered once`).toEqual(
          made.map((call) => call.id).sort(),
        );
        for (const call of made) {
          const answer = answers.find((r) => r.id === call.id)!;
          if (shouldRun.includes(call))
            expect(answer, `${where}: ${call.name}`).toMatchObject({ response: { did: call.name } });
          else expect(answer.error, `${where}: ${call.name}`).toMatch(/rejected this call: no to/);
          expect(answer.error ?? '', `${where}: ${call.name}`).not.toMatch(/interrupted/);
        }
      }
    });
  }
});

test('a reload between two decisions leaves the turn waiting: the next agent on the session asks for the rest and runs the turn', async () => {
  const log: string[] = [];
  const dbName = uniqueDb('approval-reload');
  const turns: ScriptedTurn[] = [
    {
      toolCalls: [
        { name: 'run_0', args: { n: 0 } },
        { name: 'ask_1', args: { n: 0 } },
        { name: 'ask_2', args: { n: 0 } },
      ],
    },
    { text: 'all done' },
  ];
  const first = await start({ model: { engine: 'scripted', turns }, tools: toolsFor(log), dbName });
  await first.send('go');
  const [one, two] = await first.pendingApprovals();
  await first.approve(one!.callId);
  await first.close();

  const second = await start({
    model: { engine: 'scripted', turns },
    tools: toolsFor(log),
    dbName,
    sessionId: first.sessionId,
  });
  expect((await second.pendingApprovals()).map((a) => a.callId)).toEqual([two!.callId]);
  const done = await second.reject(two!.callId);
  expect(done.endReason).toBe('answer');
  expect(log).toEqual(['run_0#0', 'ask_1#0']);
  const answers = responses((await second.sessions.get(second.sessionId))!.events);
  expect(answers.map((r) => r.error ?? 'ok')).toEqual(['ok', 'ok', expect.stringMatching(/rejected/)]);
});

test('a rule that reads page state and changes its answer once a call is decided: each decision holds for the turn, and the turn runs after two', async () => {
  // The page's state the rules read: how many decisions the person made. Each rule wants a person when the other does not.
  let decisions = 0;
  const log: string[] = [];
  const asked: string[] = [];
  const flips = (name: string, when: number) =>
    defineTool({
      name,
      description: `Changes the page (${name}).`,
      parameters: z.object({}),
      needsApproval: () => decisions % 2 === when,
      execute: () => {
        log.push(name);
        return { did: name };
      },
    });
  const agent = await start({
    model: {
      engine: 'scripted',
      turns: [
        {
          toolCalls: [
            { name: 'first', args: {} },
            { name: 'second', args: {} },
          ],
        },
        { text: 'both done' },
      ],
    },
    tools: [flips('first', 0), flips('second', 1)],
    dbName: uniqueDb('approval-flip'),
  });
  let result = await agent.send('do both');
  for (let round = 0; round < 8 && result.endReason === 'awaiting-approval'; round++) {
    const pending = await agent.pendingApprovals();
    expect(pending, `round ${round}`).toHaveLength(1);
    asked.push(pending[0]!.name);
    decisions += 1;
    result = await agent.approve(pending[0]!.callId);
  }
  expect(asked).toEqual(['first', 'second']);
  expect(result.endReason).toBe('answer');
  expect(log).toEqual(['first', 'second']);
  const answers = responses((await agent.sessions.get(agent.sessionId))!.events);
  expect(answers.map((r) => r.response)).toEqual([{ did: 'first' }, { did: 'second' }]);
});
