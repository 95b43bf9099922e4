/**
 * Gemma 3's own chat template has no tool role and allows only alternating
 * turns ("Conversation roles must alternate"). A session whose last run ended
 * on tool results (max-steps after a call, a stop during a tool, a session
 * written under another model) puts the results, a user turn for Gemma, next
 * to the person's next message. Before the fix every later step of such a
 * session failed with model-failed, on the tiny model with Gemma 3's real
 * tokenizer and template as on the real one; now the results share the
 * message's turn (src/model/engines/alternating-turns.ts, tested on every
 * family in test/model/alternating-turns.test.ts).
 */
import { expect, test } from 'vitest';
import { agentsClosedAfterEach, uniqueDb } from '../../page/helpers';
import { sessionFile, userSays } from '../../session/hostile-import';

const start = agentsClosedAfterEach();

test('a Gemma 3 session that ended on tool results goes on when the person writes again', async () => {
  const agent = await start({
    model: {
      engine: 'wllama',
      url: '/models/tiny-gemma3-prose.gguf',
      contextWindow: 2048,
      // A few words of random prose: the random model would often end its turn at once.
      completion: { n_predict: 4, ignore_eos: true },
    },
    dbName: uniqueDb('gemma3-results'),
  });
  const id = await agent.sessions.import(
    sessionFile([
      userSays('Remember milk.'),
      {
        author: 'assistant',
        content: { role: 'model', parts: [{ functionCall: { id: 'c-1', name: 'add_todo', args: { text: 'milk' } } }] },
      },
      {
        author: 'assistant',
        content: {
          role: 'tool',
          parts: [{ functionResponse: { id: 'c-1', name: 'add_todo', response: { id: '1' } } }],
        },
        endReason: 'max-steps',
      },
    ]),
  );
  await agent.openSession(id);
  for (const text of ['And eggs.', 'Thanks.']) {
    const { error, events } = await agent.send(text);
    expect(error, text).toBeUndefined();
    expect(events.some((event) => event.content?.role === 'model' && event.usage)).toBe(true);
  }
}, 120_000);
