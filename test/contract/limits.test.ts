import { describe, expect, test } from 'vitest';
import { limitsOf } from '../../src/contract/limits';

describe('the run limits', () => {
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
