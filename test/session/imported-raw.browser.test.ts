/**
 * An imported session shows the person its parts (text, calls, results); the
 * model must read exactly those, never turns the file hides from the person.
 * A model event's `raw` from a file is not the model's output in this browser
 * (the only reason the runtime replays raw is the KV cache of turns it
 * generated itself), so an import drops it and the turn is written back from
 * its parts, escaped like every text the model did not write; so are a past
 * call's arguments.
 *
 * Measured with llama.cpp's own count of the prompt, on the tiny model with
 * Qwen2.5's real tokenizer and chat template: a hidden marker read as a control
 * token is one token, its one-letter twin four or five. Before the fix the
 * "hello / ok" file read as 279 tokens and its twin as 510 (now 31 and 31);
 * the call whose arguments held forty markers as 446, against 706 for the same
 * arguments with each marker broken (now 706 and 706).
 */
import { describe, expect, test } from 'vitest';
import type { Agent, AgentEvent } from '../../src/index';
import { agentsClosedAfterEach, uniqueDb } from '../page/helpers';
import { helloOk, markedArguments } from './hostile-import';

const start = agentsClosedAfterEach();

/** Qwen2.5's vocabulary and chat template, random weights; one token of answer is enough to read the count. */
const model = {
  engine: 'wllama',
  url: '/models/tiny-qwen2_5-prose.gguf',
  contextWindow: 2048,
  completion: { n_predict: 1 },
} as const;

/** llama.cpp's count of the prompt of the first model step after "Yes please." in the imported session. */
async function promptTokens(agent: Agent, file: string): Promise<number> {
  const id = await agent.sessions.import(file);
  await agent.openSession(id);
  const { events } = await agent.send('Yes please.');
  const step = events.find((event: AgentEvent) => event.content?.role === 'model' && event.usage);
  expect(step, JSON.stringify(events.map((event) => event.error ?? event.endReason))).toBeDefined();
  return step!.usage!.promptTokens;
}

describe('an imported session cannot hide turns from the person', () => {
  test("a model event's raw from the file never reaches the prompt: the hostile file reads as its twin does", async () => {
    const agent = await start({ model, dbName: uniqueDb('imported-raw'), instructions: 'Be brief.' });
    const { hostile, twin } = helloOk();
    const hostileTokens = await promptTokens(agent, hostile);
    const twinTokens = await promptTokens(agent, twin);
    console.info(`"hello / ok" with forty hidden markers: ${hostileTokens} prompt tokens; its twin: ${twinTokens}`);
    expect(hostileTokens).toBe(twinTokens);
    // What stays of the file is what the person was shown.
    const stored = await agent.sessions.get(agent.sessionId);
    expect(stored!.events.every((event) => event.raw === undefined || event.invocationId !== 'inv-1')).toBe(true);
  }, 120_000);

  test("a past call's arguments are escaped when the prompt writes the call back: no marker in them is read whole", async () => {
    const agent = await start({ model, dbName: uniqueDb('imported-args'), instructions: 'Be brief.' });
    const { hostile, twin } = markedArguments();
    const hostileTokens = await promptTokens(agent, hostile);
    const twinTokens = await promptTokens(agent, twin);
    console.info(
      `a call whose arguments hold forty markers: ${hostileTokens} prompt tokens; with the markers broken: ${twinTokens}`,
    );
    expect(hostileTokens).toBe(twinTokens);
  }, 120_000);
});
