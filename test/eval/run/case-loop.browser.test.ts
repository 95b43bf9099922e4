/**
 * BFCL's cases through the agent's loop (`--through=loop`): each case a run of agent.send in an agent of its own,
 * judged by the run's calls. On the mechanics check (answers scripted from BFCL's possible answers, some made
 * wrong on purpose), the loop must judge what the script meant, as one step does: right calls correct, a wrong
 * value wrong, a call where none fits wrong, no call where none fits correct. One mistake is the loop's to undo:
 * "a call too many" repeats the first call, which the loop does not run again (maxRepeatedCalls), so the page
 * gets the right calls and the case is right.
 */
import { describe, expect, test } from 'vitest';
import { commands } from 'vitest/browser';
import type { EvalModel } from '../../../eval/arms/arm';
import { ours } from '../../../eval/arms/ours';
import { pickCases } from '../../../eval/bfcl/pick-cases';
import type { CaseResult } from '../../../eval/run/case-result';
import { runEval } from '../../../eval/run/run-eval';
import { hasSharedData, sharedDataPath } from '../../shared-data';

const there = hasSharedData('bfcl');
const read = (path: string) => commands.readFile(sharedDataPath('bfcl', path));
const MECHANICS: EvalModel = { kind: 'mechanics', toolFormat: 'hermes' };

async function collect(run: AsyncIterable<CaseResult>): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  for await (const result of run) results.push(result);
  return results;
}

describe.skipIf(!there)('BFCL through the loop', () => {
  test('each case is a run of its own, judged by its calls as the script meant', async () => {
    const cases = await pickCases(
      { categories: ['simple_python', 'multiple', 'parallel', 'irrelevance'], limit: 4, seed: 'loop' },
      read,
    );
    const results = await collect(runEval({ cases, arms: [ours], model: MECHANICS, seed: 'loop', through: 'loop' }));
    expect(results).toHaveLength(cases.length);
    const meant = results.map(
      ({ id, expected }) =>
        `${id}: ${expected?.kind} → ${expected?.kind === 'a call too many' ? 'correct' : expected?.verdict}`,
    );
    const judged = results.map((result) => `${result.id}: ${result.expected?.kind} → ${result.verdict}`);
    expect(judged).toEqual(meant);
    const repeated = results.filter((result) => result.expected?.kind === 'a call too many');
    expect(repeated.length).toBeGreaterThan(0);
    // The repeat was tried and refused: one attempt more than the calls the judge read.
    for (const result of repeated) expect(result.attempts).toBe(result.calls.length + 1);
    // Some of each: the sample holds right answers and mistakes, and every case started an agent of its own.
    expect(new Set(results.map((result) => result.verdict)).size).toBeGreaterThan(1);
    for (const result of results) expect(result.startSeconds).toBeGreaterThan(0);
  }, 300_000);
});
