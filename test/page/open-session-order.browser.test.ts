/**
 * A message sent right after an un-awaited openSession(id) lands in that session (issue 49: on main at 2cb0470
 * it landed in the previous one). A run waits for the session the page opened before it, as for its tool changes.
 */
import { expect, test } from 'vitest';
import { agentsClosedAfterEach, uniqueDb } from './helpers';

const start = agentsClosedAfterEach();

test('a message sent right after an un-awaited openSession(id) lands in that session', async () => {
  const agent = await start({
    model: { engine: 'scripted', turns: [{ text: 'Hello.' }] },
    dbName: uniqueDb('open-session-order'),
  });
  const before = agent.sessionId;
  void agent.openSession('the-other-session');
  await agent.send('Which session am I in?');
  const texts = async (id: string) =>
    ((await agent.sessions.get(id))?.events ?? []).flatMap((event) =>
      event.content?.role === 'user' ? event.content.parts.map((part) => ('text' in part ? part.text : '')) : [],
    );
  expect(await texts('the-other-session')).toEqual(['Which session am I in?']);
  expect(await texts(before)).toEqual([]);
});
