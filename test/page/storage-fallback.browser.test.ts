import { expect, test } from 'vitest';
import { createAgent } from '../../src/index';
import { uniqueDb } from './helpers';

/** A database left at a newer version (e.g. by a newer release of the page) cannot be opened by this one: a real failure. */
async function databaseFromTheFuture(): Promise<string> {
  const name = uniqueDb('future');
  await new Promise<void>((resolve, reject) => {
    const request = indexedDB.open(name, 99);
    request.onsuccess = () => {
      request.result.close();
      resolve();
    };
    request.onerror = () => reject(request.error);
  });
  return name;
}

test("storage 'auto' falls back to memory when IndexedDB cannot open, and says so in the session", async () => {
  const dbName = await databaseFromTheFuture();
  const agent = await createAgent({
    model: { engine: 'scripted', turns: [{ text: 'still here' }] },
    dbName,
    storage: 'auto',
  });
  try {
    expect(agent.info!.storage).toBe('memory');
    expect(agent.info!.storageNotice).toMatch(/memory only/);
    const { events } = (await agent.sessions.get(agent.sessionId))!;
    expect(events[0]!.error).toMatchObject({ code: 'storage-unavailable' });
    expect((await agent.send('hi')).text).toBe('still here');
  } finally {
    await agent.close();
  }
});

test("storage 'indexeddb' refuses to start instead of silently keeping nothing", async () => {
  const dbName = await databaseFromTheFuture();
  await expect(
    createAgent({ model: { engine: 'scripted', turns: [] }, dbName, storage: 'indexeddb' }),
  ).rejects.toMatchObject({
    code: 'storage-unavailable',
    message: expect.stringMatching(/storage: 'auto'/),
  });
});
