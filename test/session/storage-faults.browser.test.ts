/**
 * A failing disk, said loudly and recoverably (issue #11, section 4): another
 * tab that keeps an old version of the database open, and a database that
 * closes in the middle of a run (another tab deletes or upgrades it, the
 * person clears the site's data). Quota and opaque origins are tested in
 * test/e2e/storage-faults.test.ts, where a page has an origin of its own.
 */
import { describe, expect, test } from 'vitest';
import { deleteDB, openDB } from 'idb';
import { createAgent, defineTool, z } from '../../src/index';
import { agentsClosedAfterEach, rejection, responses, uniqueDb } from '../page/helpers';

const start = agentsClosedAfterEach();

describe('another tab keeps an old version of the database open', () => {
  test('each createAgent says storage-blocked, and one succeeds once the other tab lets go', async () => {
    const dbName = uniqueDb('blocked-twice');
    // A tab of an older version: it holds version 1 and ignores requests to let go.
    const old = await openDB(dbName, 1, {
      upgrade(db) {
        db.createObjectStore('sessions', { keyPath: 'id' });
        db.createObjectStore('events', { keyPath: ['sessionId', 'seq'] });
      },
    });
    const options = { model: { engine: 'scripted' as const, turns: [{ text: 'hello' }] }, dbName };
    const first = await rejection(createAgent(options));
    expect(first.code).toBe('storage-blocked');
    const second = await rejection(createAgent(options));
    expect(second.code).toBe('storage-blocked');
    expect(second.message).toMatch(/other tab/);
    old.close();
    const agent = await start(options);
    expect((await agent.send('hi')).text).toBe('hello');
  });
});

describe('the database closes in the middle of a run', () => {
  test('the run ends with storage-closed, the tool’s result is handed back, and the next run reopens the database', async () => {
    const dbName = uniqueDb('closed-mid-run');
    const order = defineTool({
      name: 'place_order',
      description: 'Places an order.',
      parameters: z.object({}),
      execute: async () => {
        // The person clears the site's data while the tool runs: the database goes away under the agent.
        await deleteDB(dbName);
        return { orderId: 'A-17' };
      },
    });
    const agent = await start({
      model: {
        engine: 'scripted',
        turns: [{ toolCalls: [{ name: 'place_order', args: {} }] }, { text: 'Ordered.' }, { text: 'Back.' }],
      },
      tools: [order],
      dbName,
    });
    const result = await agent.send('order it');
    expect(result.endReason).toBe('error');
    expect(result.error?.code).toBe('storage-closed');
    expect(result.error?.message).toMatch(/closed|deleted|cleared/);
    expect(JSON.stringify((result.error as { details?: unknown }).details)).toContain('A-17');
    expect(agent.status).toBe('ready');

    const next = await agent.send('are you there?');
    expect(next.error).toBeUndefined();
    expect(next.text).toBe('Ordered.');
    const stored = await agent.sessions.get(agent.sessionId);
    expect(stored?.events.some((e) => e.content?.parts.some((p) => 'text' in p && p.text === 'are you there?'))).toBe(
      true,
    );
    expect(responses(stored!.events)).toEqual([]);
  });

  test('another tab upgrading the database ends the run with storage-closed and says to reload', async () => {
    const dbName = uniqueDb('upgraded-mid-run');
    const order = defineTool({
      name: 'place_order',
      description: 'Places an order.',
      parameters: z.object({}),
      execute: async () => {
        // A newer version of the page, in another tab, upgrades the database.
        const newer = await openDB(dbName, 99);
        newer.close();
        return { orderId: 'B-4' };
      },
    });
    const agent = await start({
      model: { engine: 'scripted', turns: [{ toolCalls: [{ name: 'place_order', args: {} }] }, { text: 'x' }] },
      tools: [order],
      dbName,
    });
    const result = await agent.send('order it');
    expect(result.error?.code).toBe('storage-closed');
    expect(result.error?.message).toMatch(/reload/i);
    expect(JSON.stringify((result.error as { details?: unknown }).details)).toContain('B-4');
    // A run ends with an error event, as every run-level ending does; it does not reject.
    const next = await agent.send('again');
    expect(next.error?.code).toBe('storage-closed');
    expect(next.error?.message).toMatch(/reload/i);
  });
});
