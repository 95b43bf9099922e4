/**
 * The eval's run on a GGUF, in a real worker: every arm on the tiny
 * random-weight model with Gemma's vocabulary that writes Gemma's tool_code
 * markup (the mechanics of loading, asking, reading and judging; its answers
 * mean nothing). Cases on the real instruction-tuned model, Qwen2.5-Coder
 * 0.5B: test/real-model/eval/gguf-run.browser.test.ts.
 */
import { describe, expect, test } from 'vitest';
import { commands } from 'vitest/browser';
import type { EvalModel } from '../../eval/arms/arm';
import { ARMS } from '../../eval/arms/arms';
import { ours } from '../../eval/arms/ours';
import { pickCases } from '../../eval/bfcl/pick-cases';
import type { BfclCase } from '../../eval/bfcl/types';
import { openCaseAgent } from '../../eval/run/case-agent';
import type { CaseResult } from '../../eval/run/case-result';
import { runEval } from '../../eval/run/run-eval';
import { hasSharedData, sharedDataPath } from '../shared-data';

const there = hasSharedData('bfcl');
const read = (path: string) => commands.readFile(sharedDataPath('bfcl', path));
const TINY: EvalModel = { kind: 'gguf', url: '/models/tiny-gemma3-gemma-tool-code.gguf' };

async function collect(run: AsyncIterable<CaseResult>): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  for await (const result of run) results.push(result);
  return results;
}

describe.skipIf(!there)('the eval on a GGUF', () => {
  test('every arm loads the model once and judges every case', async () => {
    const cases = await pickCases({ categories: ['parallel', 'irrelevance'], limit: 1, seed: 'npm-test' }, read);
    const arms = Object.values(ARMS);
    const results = await collect(runEval({ cases, arms, model: TINY, seed: 'npm-test', maxTokens: 24 }));
    expect(results).toHaveLength(cases.length * arms.length);
    for (const result of results) {
      expect(result.verdict, `${result.arm} ${result.id}: ${result.why}`).not.toBe('error');
      expect(result.promptTokens, `${result.arm} ${result.id}`).toBeGreaterThan(0);
    }
    for (const arm of arms) {
      const own = results.filter((result) => result.arm === arm.name);
      // The first case starts the arm's agent and loads the model; the others reuse it.
      expect(own[0]!.startSeconds).toBeGreaterThan(0);
      expect(own.slice(1).map((result) => result.startSeconds)).toEqual([0]);
    }
    // Under our grammar every call read is valid under its schema (one cut off by the token cap is not read).
    for (const result of results.filter((r) => r.arm === 'ours')) expect(result.valid).toBe(result.calls.length);
  }, 120_000);

  test('a case asked after another is asked as if it were the first', async () => {
    const [first, second] = await pickCases({ categories: ['simple_python'], limit: 2, seed: 'leak' }, read);
    const model = ours.modelFor(TINY);
    if ('unavailable' in model) throw new Error(model.unavailable);
    const ask = (testCase: BfclCase) => ({ testCase, arm: 'ours' as const, modelLabel: 'tiny', maxTokens: 24 });
    const strip = ({ startSeconds: _s, seconds: _t, ...rest }: CaseResult) => rest;

    const shared = await openCaseAgent(model);
    const afterAnother = await shared.step(ask(first!)).then(() => shared.step(ask(second!)));
    await shared.close();
    const fresh = await openCaseAgent(model);
    const alone = await fresh.step(ask(second!));
    await fresh.close();
    // The same prompt (token for token), the same output, the same calls and verdict.
    expect(strip(afterAnother)).toEqual(strip(alone));
    expect(afterAnother.raw).toBeTruthy();
  }, 120_000);
});
