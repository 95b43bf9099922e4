/**
 * A long turn costs its length, not its length squared: importing a session
 * whose turns hold thousands of calls, and the next message on it (which
 * answers every call still waiting for a person), take time in proportion
 * to the log. Timed against itself in one test, never against a clock: ten
 * times the calls may take ten times as long, and a generous bound sits far
 * below the hundredfold a quadratic step would take.
 */
import { expect, test } from 'vitest';
import { defineTool, z } from '../../src/index';
import type { EventFields } from '../../src/session/event';
import { agentsClosedAfterEach, uniqueDb } from '../page/helpers';

const start = agentsClosedAfterEach();

/**
 * A session with two turns of `n` calls: the first answered call by call,
 * the second waiting for a person, with half of its calls decided.
 */
function longTurns(n: number): string {
  const events: Omit<EventFields, 'type' | 'sessionId' | 'seq' | 'id' | 'timestamp'>[] = [];
  const ids = (turn: string) => Array.from({ length: n }, (_, i) => `${turn}-${i}`);
  const calls = (turn: string) => ({
    author: 'assistant',
    invocationId: `inv-${turn}`,
    content: {
      role: 'model' as const,
      parts: ids(turn).map((id, i) => ({ functionCall: { id, name: 'mark', args: { row: i } } })),
    },
  });
  events.push({ author: 'user', invocationId: 'inv-a', content: { role: 'user', parts: [{ text: 'mark them' }] } });
  events.push(calls('a'));
  for (const id of ids('a'))
    events.push({
      author: 'assistant',
      invocationId: 'inv-a',
      content: { role: 'tool', parts: [{ functionResponse: { id, name: 'mark', response: { ok: true } } }] },
    });
  events.push({ author: 'user', invocationId: 'inv-b', content: { role: 'user', parts: [{ text: 'again' }] } });
  events.push(calls('b'));
  events.push({
    author: 'assistant',
    invocationId: 'inv-b',
    actions: { requestApproval: ids('b').map((callId, i) => ({ callId, name: 'mark', args: { row: i } })) },
    endReason: 'awaiting-approval',
  });
  for (const callId of ids('b').slice(0, n / 2))
    events.push({ author: 'user', invocationId: 'inv-b', actions: { approval: { callId, granted: true } } });
  const header = {
    type: 'session',
    format: 'inpage-agent/session@1',
    id: 'long',
    appName: location.origin,
    userId: 'local',
    createdAt: 1,
    updatedAt: 1,
    eventCount: events.length,
  };
  const numbered = events.map((event, i) => ({
    ...event,
    id: `ev-${i + 1}`,
    sessionId: 'long',
    seq: i + 1,
    timestamp: i + 1,
  }));
  return [header, ...numbered].map((line) => JSON.stringify(line)).join('\n');
}

const mark = defineTool({
  name: 'mark',
  description: 'Marks a row.',
  needsApproval: true,
  parameters: z.object({ row: z.number() }),
  execute: () => ({ ok: true }),
});

/** Milliseconds to import the session and to run the next message on it. */
async function importThenSend(n: number, dbName: string): Promise<number> {
  const importer = await start({ model: { engine: 'scripted', turns: [] }, dbName });
  const file = longTurns(n);
  const t0 = performance.now();
  const id = await importer.sessions.import(file);
  const imported = performance.now() - t0;
  await importer.close();
  const agent = await start({
    model: { engine: 'scripted', turns: [{ text: 'Nothing more to mark.' }] },
    tools: [mark],
    dbName,
    sessionId: id,
    maxToolCallsPerStep: n,
  });
  expect(await agent.pendingApprovals()).toHaveLength(n);
  const t1 = performance.now();
  const next = await agent.send('never mind');
  const sent = performance.now() - t1;
  expect(next.endReason).toBe('answer');
  expect(await agent.pendingApprovals()).toEqual([]);
  await agent.close();
  return imported + sent;
}

test(
  'a session whose turns hold 10,000 calls imports, and takes its next message, in about ten times the time of 1,000',
  { timeout: 180_000 },
  async () => {
    const dbName = uniqueDb('import-scale');
    // Warm: the first import in a fresh page also pays for compiling its code.
    await importThenSend(200, dbName);
    // Interleaved, the best of two each, so that a busy moment of the machine slows one size no more than the other.
    const small: number[] = [];
    const large: number[] = [];
    for (let round = 0; round < 2; round++) {
      small.push(await importThenSend(1_000, dbName));
      large.push(await importThenSend(10_000, dbName));
    }
    // Linear: about 10 (measured: 10.6 and 12). Quadratic: about 100 (before: 4 times the calls took 12 to 28 times as long).
    expect(Math.min(...large) / Math.min(...small)).toBeLessThan(35);
  },
);
