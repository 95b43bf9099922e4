/**
 * An import lands whole or not at all, and bad input is named as bad input.
 *
 * Before the fix a file whose call arguments nest 3,000 levels deep failed with
 * storage-unavailable ("Maximum call stack size exceeded": IndexedDB's clone of
 * the event) and left a session with the file's title that claimed 2 events and
 * held 1: the write that threw did so at once, and the transaction went on
 * without it and committed. Now such a file is refused as the runtime's own
 * values are (no value nests more than 256 levels: src/tools/plain-json.ts),
 * and a write that throws aborts the whole import.
 */
import { describe, expect, test } from 'vitest';
import { AgentError } from '../../src/index';
import { openIdbSessionStore } from '../../src/session/idb-store';
import { agentsClosedAfterEach, rejection, uniqueDb } from '../page/helpers';
import { sessionFile, userSays } from './hostile-import';

const start = agentsClosedAfterEach();

function nested(depth: number): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i++) value = { inner: value };
  return value;
}

const deepFile = (depth: number) =>
  sessionFile(
    [
      userSays('Remember this.'),
      {
        author: 'assistant',
        content: { role: 'model', parts: [{ functionCall: { id: 'c-1', name: 'add_todo', args: nested(depth) } }] },
      },
    ],
    'Deep',
  );

describe('an import is all or nothing', () => {
  test('a file nested 3,000 levels deep is refused as bad input, with its line, and nothing of it is stored', async () => {
    const agent = await start({ model: { engine: 'scripted', turns: [] }, dbName: uniqueDb('deep-import') });
    const before = await agent.sessions.list();
    const error = await rejection(agent.sessions.import(deepFile(3000)));
    expect(error).toBeInstanceOf(AgentError);
    expect(error.code).toBe('import-invalid');
    expect(error.message).toMatch(/line 3: .*nested more than 256 levels deep/);
    expect(await agent.sessions.list()).toEqual(before);
  });

  test('a file nested as deep as a tool result may be is imported', async () => {
    const agent = await start({ model: { engine: 'scripted', turns: [] }, dbName: uniqueDb('deep-ok') });
    const id = await agent.sessions.import(deepFile(250));
    expect((await agent.sessions.get(id))!.events).toHaveLength(2);
  });

  test('a write that fails at once (a value IndexedDB cannot clone) leaves no part of the session', async () => {
    const dbName = uniqueDb('import-abort');
    const store = await openIdbSessionStore({ dbName });
    const event = (seq: number, extra: object = {}) => ({
      id: `ev-${seq}`,
      sessionId: 'half',
      invocationId: 'inv-1',
      seq,
      author: 'user',
      type: 'user' as const,
      timestamp: seq,
      content: { role: 'user' as const, parts: [{ text: `event ${seq}` }] },
      ...extra,
    });
    const session = {
      id: 'half',
      appName: 'app',
      userId: 'local',
      title: 'Half',
      createdAt: 1,
      updatedAt: 2,
      state: {},
      lastSeq: 2,
      openCalls: {},
    };
    await expect(store.put(session, [event(1), event(2, { artifacts: { f: () => 1 } })])).rejects.toBeInstanceOf(
      AgentError,
    );
    expect(await store.get('half')).toBeUndefined();
    expect(await store.events('half')).toEqual([]);
    store.close();
  });
});
