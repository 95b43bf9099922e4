/**
 * A step whose output falls into a loop is stopped there, not at its token
 * limit: the 0.5B once wrote "bread, eggs, milk, " for 1,078 tokens, six
 * minutes on a CPU. Here a random-weight model (scripts/tiny-gguf.mjs) that,
 * decoding greedily, writes `<tool_call>` again and again runs in llama.cpp.
 */
import { expect, test } from 'vitest';
import type { AgentEvent } from '../../../src/index';
import { agentsClosedAfterEach, uniqueDb } from '../../page/helpers';

const start = agentsClosedAfterEach();

/** Tokens a step may write. */
const LIMIT = 600;

const modelSteps = (events: AgentEvent[]) =>
  events.filter((event) => event.content?.role === 'model' && !event.partial);

test('a step that writes one piece over and over is stopped within a few dozen tokens, and says so', async () => {
  const agent = await start({
    maxSteps: 2,
    model: {
      engine: 'wllama',
      url: '/models/tiny-qwen2_5-hermes.gguf',
      toolFormat: 'hermes',
      contextWindow: 4096,
      temperature: 0,
      completion: { n_predict: LIMIT },
    },
    dbName: uniqueDb('looping'),
  });
  // A model that writes nothing but markup ends as any model that cannot be understood does (maxSteps here).
  const { events } = await agent.send('Write something.');
  const steps = modelSteps(events);
  expect(steps.length).toBeGreaterThan(0);
  for (const step of steps) {
    expect(step.usage!.completionTokens).toBeLessThan(LIMIT / 10);
    expect(step.notices).toEqual([
      {
        code: 'repeating-output',
        message: expect.stringMatching(/^The model wrote ".+" over and over, so it was stopped after \d+ characters/),
      },
    ]);
    // The text so far is kept: what the model wrote is read as it would be at the limit.
    expect(JSON.stringify(step.content!.parts)).toContain('<tool_call><tool_call>');
  }
}, 240_000);
