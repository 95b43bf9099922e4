/**
 * Mistakes a page makes with the API get an AgentError with a stable code
 * and a message naming what was wrong, where they are made: never a raw
 * DataCloneError from the worker boundary, nor a model-failed from deep in
 * the loop. (Hand-made tools: test/tools/tool-names.browser.test.ts.)
 */
import { expect, test } from 'vitest';
import { AgentError, createAgent, type ScriptedTurn } from '../../src/index';
import { agentsClosedAfterEach, rejection } from './helpers';

const start = agentsClosedAfterEach();

test('send() with something that is not text is refused before it reaches the worker', async () => {
  const agent = await start({ model: { engine: 'scripted', turns: [{ text: 'hi' }] }, storage: 'memory' });
  for (const text of [{ toString: () => 'hello' }, 42, null, '   ']) {
    const error = await rejection(agent.send(text as unknown as string));
    expect(error).toBeInstanceOf(AgentError);
    expect(error.code).toBe('invalid-options');
    expect(error.message).toMatch(/non-empty (string|text)/);
  }
  // The agent is unharmed: the next message runs.
  expect((await agent.send('hello')).text).toBe('hi');
});

test('scripted turns of the wrong shape are refused by createAgent, naming the turn', async () => {
  const wrong: unknown[] = [
    { toolCalls: 'x' },
    { toolCalls: [{ name: 5, args: {} }] },
    { raw: 5 },
    { text: 'a', raw: 'b' },
    { toolcalls: [] },
  ];
  for (const turn of wrong) {
    const error = await rejection(
      createAgent({
        model: { engine: 'scripted', turns: [{ text: 'fine' }, turn as ScriptedTurn] },
        storage: 'memory',
      }),
    );
    expect(error, JSON.stringify(turn)).toBeInstanceOf(AgentError);
    expect(error.code).toBe('invalid-options');
    expect(error.message).toMatch(/model\.turns\[1\]/);
  }
});
