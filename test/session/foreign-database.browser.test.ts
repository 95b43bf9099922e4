/**
 * A database of our name that we did not make, or did not finish making:
 * another library's, another tab's, left at version 1 with only a `sessions`
 * store, or at our version with other stores. Ours (half made) is repaired;
 * anyone else's is left untouched and reported with storage-unavailable,
 * naming the database and what to do; storage: 'auto' then keeps sessions in
 * memory and says so. Listing or deleting sessions never creates a database.
 */
import { describe, expect, test } from 'vitest';
import { openDB } from 'idb';
import { AgentError, createAgent, deleteSession, getSession, listSessions } from '../../src/index';
import { agentsClosedAfterEach, rejection, uniqueDb } from '../page/helpers';

const start = agentsClosedAfterEach();

/** Version 1 with only a `sessions` store, as another library might leave it. */
async function versionOneWithSessionsOnly(dbName: string, record?: Record<string, unknown>) {
  const db = await openDB(dbName, 1, {
    upgrade(db) {
      db.createObjectStore('sessions', { keyPath: 'id' });
    },
  });
  if (record) await db.put('sessions', record);
  db.close();
}

async function storesOf(dbName: string) {
  const db = await openDB(dbName);
  const seen = { version: db.version, stores: [...db.objectStoreNames].sort(), records: await db.getAll('sessions') };
  db.close();
  return seen;
}

async function exists(dbName: string) {
  return (await indexedDB.databases()).some((db) => db.name === dbName);
}

const scripted = { engine: 'scripted' as const, turns: [{ text: 'hello' }, { text: 'again' }] };

describe('a database of our name that is not ours', () => {
  test('version 1 holding another library’s sessions store: refused, named, untouched; auto falls back to memory', async () => {
    const dbName = uniqueDb('foreign-v1');
    const theirs = { id: 'note-1', body: 'their data' };
    await versionOneWithSessionsOnly(dbName, theirs);

    const refused = await rejection(createAgent({ model: scripted, dbName }));
    expect(refused).toBeInstanceOf(AgentError);
    expect(refused.code).toBe('storage-unavailable');
    expect(refused.message).toContain(`"${dbName}"`);
    expect(refused.message).toMatch(/dbName/);

    const listed = await rejection(listSessions({ dbName }));
    expect(listed).toBeInstanceOf(AgentError);
    expect(listed.code).toBe('storage-unavailable');

    const agent = await start({ model: scripted, dbName, storage: 'auto' });
    expect(agent.info!.storage).toBe('memory');
    expect(agent.info!.storageNotice).toContain(`"${dbName}"`);
    expect((await agent.send('hi')).text).toBe('hello');

    expect(await storesOf(dbName)).toEqual({ version: 1, stores: ['sessions'], records: [theirs] });
  });

  test('our version with other stores: refused, named, untouched', async () => {
    const dbName = uniqueDb('foreign-v2');
    const db = await openDB(dbName, 2, {
      upgrade(db) {
        db.createObjectStore('notes');
      },
    });
    db.close();
    const refused = await rejection(createAgent({ model: scripted, dbName }));
    expect(refused.code).toBe('storage-unavailable');
    expect(refused.message).toContain(`"${dbName}"`);
    const agent = await start({ model: scripted, dbName, storage: 'auto' });
    expect(agent.info!.storage).toBe('memory');
    const after = await openDB(dbName);
    expect([...after.objectStoreNames]).toEqual(['notes']);
    after.close();
  });
});

describe('a database of ours, half made', () => {
  test('version 1 with an empty sessions store and no events store is repaired, and keeps what it is given', async () => {
    const dbName = uniqueDb('half-made');
    await versionOneWithSessionsOnly(dbName);
    const agent = await start({ model: scripted, dbName });
    expect(agent.info!.storage).toBe('indexeddb');
    expect((await agent.send('hi')).text).toBe('hello');
    expect(await listSessions({ dbName })).toHaveLength(1);
    expect((await storesOf(dbName)).stores).toEqual(['appState', 'events', 'sessions', 'userState']);
  });

  test('version 1 with one of our sessions and no events store is repaired, and the session opens', async () => {
    const dbName = uniqueDb('half-made-ours');
    const ours = {
      id: 's-ours',
      appName: location.origin,
      userId: 'local',
      createdAt: 1,
      updatedAt: 1,
      state: {},
      lastSeq: 0,
    };
    await versionOneWithSessionsOnly(dbName, ours);
    const agent = await start({ model: scripted, dbName, sessionId: 's-ours' });
    expect(agent.sessionId).toBe('s-ours');
    expect((await agent.send('hi')).text).toBe('hello');
  });
});

describe('sessions reached without an agent', () => {
  test('listSessions and deleteSession on a database that does not exist create none', async () => {
    const dbName = uniqueDb('never-made');
    expect(await listSessions({ dbName })).toEqual([]);
    await deleteSession('nothing', { dbName });
    expect(await getSession('nothing', { dbName })).toBeUndefined();
    expect(await exists(dbName)).toBe(false);
  });

  test('getSession reads what an open agent stored, as agent.sessions.get gives it; a bad id or a foreign database is refused in words', async () => {
    const dbName = uniqueDb('read-on-page');
    const agent = await start({ model: scripted, dbName });
    await agent.send('hi');
    const onPage = await getSession(agent.sessionId, { dbName });
    const inWorker = await agent.sessions.get(agent.sessionId);
    expect(onPage?.events.map((event) => event.id)).toEqual(inWorker?.events.map((event) => event.id));
    expect(onPage?.events.map((event) => event.type)).toEqual(['user', 'model']);
    expect(await getSession('not-stored', { dbName })).toBeUndefined();
    // The agent goes on storing after the page read (the page's connection was closed, nothing blocks).
    expect((await agent.send('hi again')).text).toBe('again');
    expect((await getSession(agent.sessionId, { dbName }))?.events).toHaveLength(4);

    const bad = await rejection(getSession('', { dbName }));
    expect(bad.code).toBe('invalid-options');
    expect(bad.message).toMatch(/^getSession: the session id/);
    const foreign = uniqueDb('read-foreign');
    await versionOneWithSessionsOnly(foreign, { id: 'note-1', body: 'their data' });
    expect((await rejection(getSession('note-1', { dbName: foreign }))).code).toBe('storage-unavailable');
  });
});
