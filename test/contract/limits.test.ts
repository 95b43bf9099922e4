import { describe, expect, test } from 'vitest';
import { limitsOf } from '../../src/contract/limit-defaults';
import { limitsShape } from '../../src/contract/limits';
import { z } from '../../src/tools/zod';

describe('the run limits', () => {
  test("the worker's defaults, applied without zod, are the schema's", () => {
    expect(limitsOf({})).toEqual(z.object(limitsShape).parse({}));
  });

  test('an option left out gets the default that createAgent documents', () => {
    expect(limitsOf({})).toEqual({ maxSteps: 10, maxToolCallsPerStep: 8, maxRepeatedCalls: 1 });
  });

  test('what the page gave is kept, Infinity included, and nothing else comes along', () => {
    const given = { maxToolCallsPerStep: 2, maxRepeatedCalls: Infinity, maxToolRounds: 0, instructions: 'x' };
    expect(limitsOf(given)).toEqual({
      maxSteps: 10,
      maxToolCallsPerStep: 2,
      maxRepeatedCalls: Infinity,
      maxToolRounds: 0,
    });
  });

  test('maxToolRounds left out stays absent: the model decides', () => {
    expect('maxToolRounds' in limitsOf({ maxSteps: 3, maxToolRounds: undefined })).toBe(false);
  });
});
