/**
 * A message sent to an agent that is closing, or is closed while the message
 * is on its way, never vanishes: run() either ends with its events (the last
 * one says how it ended) or rejects with `closed`. (A page that replaces its
 * agent, as the demo does when the visitor picks a model, relies on this.)
 */
import { expect, test } from 'vitest';
import { AgentError, createAgent, type AgentEvent } from '../../src/index';
import { uniqueDb } from './helpers';

type Moment = 'closing first' | 'same tick' | 'message stored' | 'answer streaming';

test.each(['memory', 'indexeddb'] as const)(
  'with %s storage: a message raced by close() ends with an ending event or rejects with closed',
  async (storage) => {
    const moments: Moment[] = ['closing first', 'same tick', 'message stored', 'answer streaming'];
    for (const moment of moments) {
      const agent = await createAgent({
        model: { engine: 'scripted', turns: [{ text: 'a slow answer', delayMs: 200 }] },
        storage,
        ...(storage === 'indexeddb' && { dbName: uniqueDb('run-closing') }),
      });
      const seen: AgentEvent[] = [];
      let closing: Promise<void> | undefined;
      if (moment === 'closing first') closing = agent.close();
      const running = (async () => {
        for await (const event of agent.run('hello')) {
          seen.push(event);
          if (moment === 'message stored' && event.content?.role === 'user') closing ??= agent.close();
          if (moment === 'answer streaming' && event.partial) closing ??= agent.close();
        }
      })();
      if (moment === 'same tick') closing = agent.close();
      const outcome = await running.then(
        () => 'ended',
        (error: unknown) => error,
      );
      await closing;
      if (outcome === 'ended') {
        expect(seen.at(-1)?.endReason, moment).toBeDefined();
      } else {
        expect(outcome, moment).toBeInstanceOf(AgentError);
        expect((outcome as AgentError).code, moment).toBe('closed');
      }
      if (moment === 'closing first') expect(outcome, moment).toBeInstanceOf(AgentError);
      expect(agent.status).toBe('closed');
    }
  },
);
