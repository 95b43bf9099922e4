// createAgent({ decisions }): the page's value checked with a message that says what is allowed, and the
// parts a run takes: on by default where the model decides (llama.cpp, web-llm), off for a script or a page's
// own engine, and each part settable alone.
import { describe, expect, test } from 'vitest';
import { checkOptions } from '../../src/page/options-schema';
import { decisionsOf } from '../../src/contract/decision-defaults';
import { AgentError } from '../../src/errors';

const model = { engine: 'scripted', turns: [] } as const;
const DEFAULTS = {
  callOrAnswer: true,
  toolsThatFit: false,
  givenValues: false,
  moreCalls: true,
  retry: true,
  claims: true,
};
const ALL_OFF = {
  callOrAnswer: false,
  toolsThatFit: false,
  givenValues: false,
  moreCalls: false,
  retry: false,
  claims: false,
};

describe('decisions among createAgent options', () => {
  test.each([['yes'], [{ fitTools: 8 }], [{ claims: 'always' }], [{ toolFirst: true }]])(
    'refuses %j with invalid-options naming the parts',
    (decisions) => {
      let error: unknown;
      try {
        checkOptions({ model, decisions });
      } catch (thrown) {
        error = thrown;
      }
      expect(error).toBeInstanceOf(AgentError);
      expect((error as AgentError).code).toBe('invalid-options');
      expect((error as AgentError).message).toMatch(/decisions/);
    },
  );

  test('accepts true, false and parts', () => {
    for (const decisions of [true, false, { claims: false }, {}])
      expect(() => checkOptions({ model, decisions })).not.toThrow();
  });
});

describe('the parts a run takes', () => {
  test('on for llama.cpp and web-llm, off for a script and a module engine, when the page says nothing', () => {
    expect(decisionsOf({}, 'wllama')).toEqual(DEFAULTS);
    expect(decisionsOf({}, 'webllm')).toEqual(DEFAULTS);
    expect(decisionsOf({}, 'scripted')).toEqual(ALL_OFF);
    expect(decisionsOf({}, 'module')).toEqual(ALL_OFF);
  });

  test('true means every part at its default, false every part off; an object sets its parts and keeps the others at theirs', () => {
    expect(decisionsOf({ decisions: true }, 'module')).toEqual(DEFAULTS);
    expect(decisionsOf({ decisions: false }, 'wllama')).toEqual(ALL_OFF);
    expect(decisionsOf({ decisions: { claims: false } }, 'scripted')).toEqual({ ...DEFAULTS, claims: false });
    expect(decisionsOf({ decisions: { toolsThatFit: true } }, 'wllama')).toEqual({ ...DEFAULTS, toolsThatFit: true });
    expect(decisionsOf({ decisions: { givenValues: true } }, 'wllama')).toEqual({ ...DEFAULTS, givenValues: true });
  });
});
