/**
 * A session id is a string of 1 to 256 characters, wherever a page gives one:
 * createAgent({ sessionId }), openSession(id), and agent.sessions' get, delete,
 * export and subscribe. Anything else is refused on the page with
 * invalid-options, before the worker or IndexedDB sees it. 256 characters fit
 * any id a page makes (the runtime's own are about 30; a UUID is 36; a user's
 * and a thread's together fit easily), and the id is stored on every event of
 * the session and names its lock and its messages to other tabs.
 *
 * Before the fix sessions.get(null) and sessions.get({}) failed in IndexedDB
 * with storage-unavailable, and a 1,000,000-character id was accepted and
 * stored on every event.
 */
import { describe, expect, test } from 'vitest';
import { AgentError } from '../../src/index';
import { agentsClosedAfterEach, rejection, uniqueDb } from './helpers';

const start = agentsClosedAfterEach();
const scripted = () => ({ engine: 'scripted' as const, turns: [{ text: 'Hello.' }] });

const BAD_IDS: [string, unknown, RegExp][] = [
  ['null', null, /must be a string/],
  ['an object', {}, /must be a string/],
  ['a number', 42, /must be a string/],
  ['an empty string', '', /must not be empty/],
  ['1,000,000 characters', 'x'.repeat(1_000_000), /at most 256 characters/],
];

describe('a session id that is not one is refused on the page with invalid-options', () => {
  test.each(BAD_IDS)('%s', async (_, id, says) => {
    const agent = await start({ model: scripted(), dbName: uniqueDb('session-ids') });
    for (const [where, call] of [
      ['sessions.get', () => agent.sessions.get(id as string)],
      ['sessions.delete', () => agent.sessions.delete(id as string)],
      ['sessions.export', () => agent.sessions.export(id as string)],
      ['sessions.subscribe', async () => agent.sessions.subscribe(id as string, () => {})],
      ['openSession', () => agent.openSession(id as string)],
    ] as const) {
      const error = await rejection(call());
      expect(error, where).toBeInstanceOf(AgentError);
      expect(error.code, where).toBe('invalid-options');
      expect(error.message, where).toContain(`${where}: the session id`);
      expect(error.message, where).toMatch(says);
    }
    const created = await rejection(start({ model: scripted(), sessionId: id as string, storage: 'memory' }));
    expect(created.code).toBe('invalid-options');
    expect(created.message).toMatch(says);
  });

  test('an id of 256 characters opens, holds its events and is read back', async () => {
    const id = 'a'.repeat(256);
    const agent = await start({ model: scripted(), sessionId: id, dbName: uniqueDb('session-id-256') });
    expect(agent.sessionId).toBe(id);
    await agent.send('hi');
    expect((await agent.sessions.get(id))!.events.every((event) => event.sessionId === id)).toBe(true);
  });
});
