// Every case of BFCL's categories with answers, judged on its own possible answer (each argument at
// its first accepted value): the judge must say correct. Then the same answers made wrong on purpose
// must be judged wrong, with the rule BFCL's checker gives that mistake.
import { readFile } from 'node:fs/promises';
import { describe, expect, test } from 'vitest';
import { BFCL_CATEGORIES, hasAnswers } from '../../../eval/bfcl/categories';
import { judge, type Verdict } from '../../../eval/bfcl/judge';
import { loadCategory } from '../../../eval/bfcl/load';
import { possibleCalls } from '../../../eval/bfcl/possible-calls';
import type { BfclCase, ModelCall } from '../../../eval/bfcl/types';
import {
  extraCall,
  missingRequired,
  otherFunction,
  wrongName,
  wrongValue,
  type Corrupted,
} from '../../../eval/mechanics/corrupt';
import { hasSharedData, sharedDataPath } from '../../shared-data';

const there = hasSharedData('bfcl');
const withAnswers = BFCL_CATEGORIES.filter(hasAnswers);

async function cases(): Promise<BfclCase[]> {
  const all = await Promise.all(
    withAnswers.map((category) => loadCategory(category, (path) => readFile(sharedDataPath('bfcl', path), 'utf8'))),
  );
  return all.flat();
}

/**
 * Cases of BFCL's data that no call can answer, found by rule rather than listed by hand: an answer
 * names a parameter its function does not declare, with a value first (live_multiple_862-181-3's
 * journey_start_time: no model can write it, the checker calls it unexpected), or accepts no value
 * at all for a parameter (live_simple_106-63-0's auto_loan_payment_start: [], where every value
 * fails BFCL's type check and leaving it out fails "required").
 */
function unanswerable(testCase: BfclCase): string | undefined {
  for (const answer of testCase.expected ?? []) {
    const [name, accepted] = Object.entries(answer)[0]!;
    const fn = testCase.functions.find((candidate) => candidate.name === name)!;
    for (const [param, values] of Object.entries(accepted)) {
      if (values.length === 0) return `${param} accepts no value`;
      if (values[0] !== '' && !(param in fn.parameters.properties)) return `${param} is not declared`;
    }
  }
  return undefined;
}

function judged(testCase: BfclCase, calls: ModelCall[]): Verdict {
  return judge(testCase, { calls, unreadable: 0 });
}

describe.skipIf(!there)('BFCL’s own possible answers', () => {
  test('each is judged correct, but for the few that no call can meet', async () => {
    const all = await cases();
    expect(all.length).toBe(2351); // simple_python 400, multiple, parallel, parallel_multiple 200 each, live 258 + 1053 + 16 + 24
    const unwinnable = all.filter((testCase) => unanswerable(testCase));
    for (const testCase of all) {
      const verdict = judged(testCase, possibleCalls(testCase));
      expect(verdict, `${testCase.id} ${JSON.stringify(verdict)}`).toMatchObject({
        verdict: unanswerable(testCase) ? 'wrong' : 'correct',
      });
    }
    expect(unwinnable.map((c) => `${c.id}: ${unanswerable(c)}`)).toMatchInlineSnapshot(`
      [
        "parallel_multiple_26: type is not declared",
        "live_simple_106-63-0: auto_loan_payment_start accepts no value",
        "live_simple_112-68-0: acc_routing_start accepts no value",
        "live_multiple_862-181-3: journey_start_time is not declared",
        "live_multiple_964-207-0: question is not declared",
      ]
    `);
  });

  test.each([
    ['a value no answer accepts', wrongValue, 0.95],
    ['a required parameter left out', missingRequired, 0.85],
    ['a name the case does not declare', wrongName, 1],
    ['another function the case declares', otherFunction, 0.4],
    ['one call too many', extraCall, 1],
  ] as const)('made wrong with %s, each is judged wrong with the rule BFCL gives it', async (_, corrupt, share) => {
    const all = (await cases()).filter((testCase) => !unanswerable(testCase));
    let corrupted = 0;
    for (const testCase of all) {
      const wrong: Corrupted | undefined = corrupt(testCase, possibleCalls(testCase));
      if (!wrong) continue;
      corrupted++;
      expect(judged(testCase, wrong.calls), testCase.id).toMatchObject({ verdict: 'wrong', rule: wrong.rule });
    }
    // Most cases can be made wrong this way; those that cannot have no such argument (nothing required, only variables).
    expect(corrupted / all.length).toBeGreaterThanOrEqual(share);
  });
});
