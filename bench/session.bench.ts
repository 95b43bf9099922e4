/**
 * Session storage: appending one event (default and relaxed durability),
 * appending 10,000, and opening a 10,000-event session ready to run. The
 * peer is a bare idb put of the same event, without the session's counter
 * and state kept in the same transaction: the floor for one durable write.
 */
import { openDB } from 'idb';
import { openIdbSessionStore } from '../src/session/idb-store';
import { interruptedCalls } from '../src/session/repair';
import { HISTORY_WINDOW, readRecent } from '../src/session/recent-events';
import type { NewEvent } from '../src/session/event';
import { measure, summarize, type BenchRow, type BenchSuite } from './harness';

const event = (sessionId: string, i: number): NewEvent => ({
  id: `e${i}`,
  sessionId,
  invocationId: `inv${Math.floor(i / 4)}`,
  author: i % 2 ? 'assistant' : 'user',
  timestamp: Date.now(),
  content: { role: i % 2 ? 'model' : 'user', parts: [{ text: `message number ${i} with a little text in it` }] },
  actions: i % 5 === 0 ? { stateDelta: { step: i } } : undefined,
});

const suite: BenchSuite = async () => {
  const store = await openIdbSessionStore({ dbName: `bench-session-${crypto.randomUUID()}` });
  const single = await store.create({ appName: 'bench', userId: 'u' });
  let n = 0;
  const appendDefault = await measure(() => store.append(single.id, event(single.id, n++)), {
    iterations: 300,
    warmup: 20,
  });
  const appendRelaxed = await measure(() => store.append(single.id, event(single.id, n++), { durability: 'relaxed' }), {
    iterations: 300,
    warmup: 20,
  });

  const floorDb = await openDB(`bench-floor-${crypto.randomUUID()}`, 1, {
    upgrade: (db) => void db.createObjectStore('events', { keyPath: ['sessionId', 'seq'] }),
  });
  let m = 0;
  const floor = await measure(() => floorDb.put('events', { ...event('s', m), seq: m++ }), {
    iterations: 300,
    warmup: 20,
  });
  floorDb.close();

  const big = await store.create({ appName: 'bench', userId: 'u' });
  const t0 = performance.now();
  for (let i = 0; i < 10_000; i++) await store.append(big.id, event(big.id, i));
  const appendMany = performance.now() - t0;
  const dbName = store.db.name;
  store.close();

  const opens: number[] = [];
  for (let i = 0; i < 15; i++) {
    const start = performance.now();
    const reopened = await openIdbSessionStore({ dbName });
    // What createAgent({ sessionId }) reads before the first run: the session and its recent events, in one read.
    const { session } = (await readRecent(reopened, big.id))!;
    await interruptedCalls(reopened, session);
    opens.push(performance.now() - start);
    reopened.close();
  }
  const open = summarize(opens.slice(3));

  // What agent.sessions.get(id) reads for a history view: the session and every event.
  const fullReads: number[] = [];
  const reader = await openIdbSessionStore({ dbName });
  for (let i = 0; i < 8; i++) {
    const start = performance.now();
    await reader.get(big.id);
    await reader.events(big.id);
    fullReads.push(performance.now() - start);
  }
  reader.close();
  const fullRead = summarize(fullReads.slice(2));

  const rows: BenchRow[] = [
    {
      group: 'session',
      name: 'append one event (default durability)',
      median: appendDefault.median,
      p95: appendDefault.p95,
      unit: 'ms',
      peer: { name: 'bare idb put', median: floor.median },
      target: '< 1 ms',
    },
    {
      group: 'session',
      name: "append one event ('relaxed')",
      median: appendRelaxed.median,
      p95: appendRelaxed.p95,
      unit: 'ms',
      peer: { name: 'bare idb put', median: floor.median },
    },
    {
      group: 'session',
      name: 'append 10,000 events, one by one (total)',
      median: appendMany,
      unit: 'ms',
      note: `${(appendMany / 10_000).toFixed(3)} ms per event`,
    },
    {
      group: 'session',
      name: 'open a 10,000-event session, ready to run',
      median: open.median,
      p95: open.p95,
      unit: 'ms',
      target: '< 50 ms',
      note: `open db + session + its latest ${HISTORY_WINDOW} events + interrupted-call check (what an agent reads to resume)`,
    },
    {
      group: 'session',
      name: 'read a 10,000-event session whole (sessions.get)',
      median: fullRead.median,
      p95: fullRead.p95,
      unit: 'ms',
      note: 'session + all 10,000 events, as a history view reads them',
    },
  ];
  return rows;
};
export default suite;
