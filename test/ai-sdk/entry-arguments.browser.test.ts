/**
 * What the two entries of inpage-agent/ai-sdk take, attacked with every shape
 * a page may pass by mistake: each is refused with the AgentError the rest of
 * the API gives (`invalid-options`, saying what to pass), never a TypeError
 * from deep inside, and never later than the entry can know.
 */
import { generateText } from 'ai';
import { describe, expect, test } from 'vitest';
import { inpageChatTransport, inpageModel } from '../../src/ai-sdk/index';
import type { Agent, ModelOptions } from '../../src/index';
import { agentsClosedAfterEach, uniqueDb } from '../page/helpers';

const start = agentsClosedAfterEach();

/** Each entry is typed; a page in plain JavaScript may pass anything. */
const anyModel = inpageModel as (model?: unknown, settings?: unknown) => ReturnType<typeof inpageModel>;
const anyTransport = inpageChatTransport as (
  agent?: unknown,
  options?: unknown,
) => ReturnType<typeof inpageChatTransport>;

/** The error `fn` throws at once. */
function thrownBy(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw, but it returned');
}

const notAnAgentNorOptions: [string, unknown][] = [
  ['nothing', undefined],
  ['null', null],
  ['a string', 'wllama'],
  ['a number', 42],
  ['an array', [{ engine: 'scripted', turns: [] }]],
  ['a function', () => undefined],
  ['an empty object', {}],
  ['an object whose engine is not a string', { engine: 42, url: '/models/tiny.gguf' }],
  ['an agent-like object without generate', { sessionId: 'chat', info: { model: { modelId: 'fake' } } }],
  ['an object whose generate is not a function', { generate: 'yes' }],
];

describe('inpageModel(model, settings)', () => {
  test.each(notAnAgentNorOptions)('refuses %s as its model at once, saying what to pass', (_, model) => {
    expect(thrownBy(() => anyModel(model))).toMatchObject({
      name: 'AgentError',
      code: 'invalid-options',
      message: expect.stringMatching(/^inpageModel\(model\) takes createAgent's model options .* or an agent/),
    });
  });

  test.each<[string, unknown]>([
    ['null', null],
    ['a string', '/inpage-agent.worker.js'],
    ['a number', 1],
    ['an array', ['/inpage-agent.worker.js']],
    ['a misspelt setting', { wokerUrl: '/inpage-agent.worker.js' }],
  ])('refuses %s as its settings at once, saying what to pass', (_, settings) => {
    const model: ModelOptions = { engine: 'scripted', turns: [] };
    expect(thrownBy(() => anyModel(model, settings))).toMatchObject({
      name: 'AgentError',
      code: 'invalid-options',
      message: expect.stringMatching(/^inpageModel\(model, settings\): .*\{ workerUrl/),
    });
  });

  test('refuses settings beside an agent, whose model runs in that agent’s worker', async () => {
    const agent = await start({ model: { engine: 'scripted', turns: [] }, dbName: uniqueDb('ai-sdk-args') });
    expect(thrownBy(() => anyModel(agent, { workerUrl: '/elsewhere.js' }))).toMatchObject({
      code: 'invalid-options',
      message: expect.stringContaining("runs in that agent's worker"),
    });
    // An agent with no settings, or empty ones, is what it takes.
    expect(anyModel(agent).modelId).toBe('scripted');
    expect(anyModel(agent, {}).modelId).toBe('scripted');
  });

  test.each<[string, unknown, RegExp]>([
    ['an unknown engine', { engine: 'gpt' }, /engine: 'webllm', modelId/],
    ['a wllama model without its url', { engine: 'wllama' }, /model\.url is required with engine 'wllama'/],
    ['a webllm model without its id', { engine: 'webllm' }, /model\.modelId/],
    ['a scripted model without turns', { engine: 'scripted' }, /model\.turns/],
    ['a module engine without its url', { engine: 'module' }, /model\.url is required with engine 'module'/],
    ['a worker URL that is not one', { engine: 'scripted', turns: [] }, /workerUrl must be the URL/],
  ])(
    'model options with %s are refused by createAgent’s own check at the first step, before a worker starts',
    async (name, model, message) => {
      const settings = name.startsWith('a worker URL') ? { workerUrl: 42 } : undefined;
      await expect(
        generateText({ model: anyModel(model, settings), prompt: 'Hi.', maxRetries: 0 }),
      ).rejects.toMatchObject({ name: 'AgentError', code: 'invalid-options', message: expect.stringMatching(message) });
    },
  );
});

describe('inpageChatTransport(agent, options)', () => {
  test.each<[string, unknown]>([
    ...notAnAgentNorOptions,
    ['model options instead of an agent', { engine: 'scripted', turns: [] }],
    ['an agent-like object without run', { sessionId: 'chat', generate: () => undefined }],
  ])('refuses %s as its agent at once, saying what to pass', (_, agent) => {
    expect(thrownBy(() => anyTransport(agent))).toMatchObject({
      name: 'AgentError',
      code: 'invalid-options',
      message: expect.stringMatching(/^inpageChatTransport\(agent\) takes an agent made by createAgent\(\)/),
    });
  });

  test.each<[string, unknown, string]>([
    ['null', null, 'runOptions'],
    ['a string', 'fail', 'runOptions'],
    ['an array', [], 'runOptions'],
    ['a misspelt option', { runOption: { ifBusy: 'fail' } }, 'runOption is not an option'],
    ['runOptions that are not an object', { runOptions: 'fail' }, 'runOptions must be'],
    ['runOptions with a signal', { runOptions: { signal: new AbortController().signal } }, "the chat's own"],
    ['runOptions with a misspelt key', { runOptions: { ifbusy: 'fail' } }, 'runOptions.ifbusy is not'],
    [
      'an ifBusy that is neither wait nor fail',
      { runOptions: { ifBusy: 'never' } },
      "runOptions.ifBusy must be 'wait' or 'fail'",
    ],
  ])('refuses %s as its options at once, saying what to pass', async (_, options, says) => {
    const agent = await start({ model: { engine: 'scripted', turns: [] }, dbName: uniqueDb('ai-sdk-args') });
    expect(thrownBy(() => anyTransport(agent, options))).toMatchObject({
      name: 'AgentError',
      code: 'invalid-options',
      message: expect.stringMatching(/^inpageChatTransport\(agent, options\): /),
    });
    expect((thrownBy(() => anyTransport(agent, options)) as Error).message).toContain(says);
  });

  test('takes an agent, with no options, empty ones, or its run options', async () => {
    const agent: Agent = await start({ model: { engine: 'scripted', turns: [] }, dbName: uniqueDb('ai-sdk-args') });
    for (const options of [undefined, {}, { runOptions: {} }, { runOptions: { ifBusy: 'fail', toolChoice: 'auto' } }])
      expect(anyTransport(agent, options).resumeStreamIsReplay).toBe(true);
  });
});
