/**
 * A small fixed sample of BFCL (2 cases of each category, by seed) through the runner's own path: an
 * agent in a real worker, one step per case, the case's functions as tools, one model step, the judge. No model:
 * each case's possible answer is written in a family's format (a different family per category) and
 * read by our reader, so the judge must say correct; then the same answer made wrong on purpose (a
 * value, a required parameter, another function, a call too many, no call, cut off) must be judged
 * wrong or invalid with BFCL's rule. The other arms' engine modules get the right answers in their
 * syntax. So the eval's plumbing cannot rot while `npm run eval` waits for a real model.
 */
import { describe, expect, test } from 'vitest';
import { commands } from 'vitest/browser';
import type { Arm, EvalModel } from '../../eval/arms/arm';
import { fencedJson } from '../../eval/arms/fenced-json';
import { native } from '../../eval/arms/native';
import { ours } from '../../eval/arms/ours';
import { BFCL_CATEGORIES, hasAnswers } from '../../eval/bfcl/categories';
import { pickCases } from '../../eval/bfcl/pick-cases';
import { possibleCalls } from '../../eval/bfcl/possible-calls';
import type { BfclCase } from '../../eval/bfcl/types';
import { everyAnswer, expectedFor, type MechanicsAnswer } from '../../eval/mechanics/script';
import type { CaseResult } from '../../eval/run/case-result';
import { ArmAgents } from '../../eval/run/arm-agents';
import { openCaseAgent } from '../../eval/run/case-agent';
import { runCase } from '../../eval/run/run-case';
import { TOOL_FORMATS } from '../../src/model/formats/registry';
import type { ToolFormatName } from '../../src/model/formats/tool-format';
import { hasSharedData, sharedDataPath } from '../shared-data';

const there = hasSharedData('bfcl');
const cases: BfclCase[] = there
  ? await pickCases({ categories: BFCL_CATEGORIES, limit: 2, seed: 'npm-test' }, (path) =>
      commands.readFile(sharedDataPath('bfcl', path)),
    )
  : [];
const formats = Object.keys(TOOL_FORMATS) as ToolFormatName[];

/** An arm's model option for the mechanics check, for one answer. */
function modelFor(arm: Arm, answer: MechanicsAnswer, format: ToolFormatName) {
  const model: EvalModel = { kind: 'mechanics', toolFormat: format };
  const options = arm.modelFor(model, answer);
  if ('unavailable' in options) throw new Error(options.unavailable);
  return options;
}

/**
 * Every answer of a case through one agent, one step each: our scripted engine replays them in turn
 * (it reads each as written, whatever came before), so a case starts one worker, not one per answer.
 */
async function judgeEach(
  testCase: BfclCase,
  answers: MechanicsAnswer[],
  format: ToolFormatName,
): Promise<CaseResult[]> {
  const turns = answers.flatMap((answer) => {
    const options = modelFor(ours, answer, format);
    return options.engine === 'scripted' ? options.turns : [];
  });
  const agent = await openCaseAgent({ engine: 'scripted', turns, toolFormat: format });
  try {
    const results: CaseResult[] = [];
    for (const _ of answers) results.push(await agent.step({ testCase, arm: 'ours', modelLabel: 'mechanics' }));
    return results;
  } finally {
    await agent.close();
  }
}

function verdictOf(result: CaseResult) {
  return { verdict: result.verdict, ...(result.verdict !== 'correct' && { rule: result.rule }) };
}

describe.skipIf(!there)('a BFCL sample through the runner, no model', () => {
  test('2 cases of each of the 11 categories, the same on every run', () => {
    expect(cases.map((testCase) => testCase.category)).toEqual(BFCL_CATEGORIES.flatMap((c) => [c, c]));
  });

  test.each(BFCL_CATEGORIES.map((category, i) => [category, formats[i % formats.length]!] as const))(
    '%s, written as %s: the right answer is judged correct, each mistake wrong with its rule',
    async (category, format) => {
      for (const testCase of cases.filter((c) => c.category === category)) {
        const answers = everyAnswer(testCase);
        const [judged, ...wrong] = await judgeEach(testCase, answers, format);
        expect(verdictOf(judged!), `${testCase.id}: ${judged!.why} ${judged!.raw}`).toEqual({ verdict: 'correct' });
        // What the reader read is what BFCL's answer says, call for call.
        if (hasAnswers(category)) expect(judged!.calls).toEqual(possibleCalls(testCase));
        expect(judged!.unreadable).toBe(0);
        expect(wrong.length).toBeGreaterThan(0);
        wrong.forEach((result, i) => {
          const mistake = answers[i + 1]!;
          expect(verdictOf(result), `${testCase.id}, ${mistake.kind}: ${result.why} ${result.raw}`).toEqual(
            mistake.expect,
          );
        });
      }
    },
  );

  // One call, several, none: each run starts a worker, and these arms' readers do not depend on the category
  // (test/eval/arms has them in detail); what the arm passes on does (the AI SDK's, the first call only).
  const someCases = cases.filter(
    (c, i) => i % 2 === 0 && ['simple_python', 'parallel_multiple', 'irrelevance'].includes(c.category),
  );
  test.each([native, fencedJson])(
    'arm $name: its engine module reads right answers as the script meant',
    async (arm) => {
      expect(someCases).toHaveLength(3);
      const agents = new ArmAgents();
      for (const testCase of someCases) {
        const [right] = everyAnswer(testCase);
        const result = await runCase(agents, {
          testCase,
          arm: arm.name,
          modelLabel: 'mechanics',
          model: modelFor(arm, right!, 'generic-json'),
        });
        expect(verdictOf(result), `${testCase.id}: ${result.why}`).toEqual(expectedFor(right!, arm, testCase));
        expect(result.unreadable).toBe(0);
      }
      await agents.close();
    },
  );
});
