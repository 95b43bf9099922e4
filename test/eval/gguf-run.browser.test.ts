/**
 * The eval's run on a GGUF, in a real worker: every arm on the tiny
 * random-weight model with Gemma's vocabulary that writes Gemma's tool_code
 * markup (the mechanics of loading, asking, reading and judging; its answers
 * mean nothing), then a case on the real instruction-tuned model,
 * Qwen2.5-Coder 0.5B (skipped, saying so, when it has not been fetched; CI
 * fails without it).
 */
import { describe, expect, test } from 'vitest';
import { commands } from 'vitest/browser';
import { isUnavailable, type Arm, type EvalModel } from '../../eval/arms/arm';
import { ARMS } from '../../eval/arms/arms';
import { native } from '../../eval/arms/native';
import { ours } from '../../eval/arms/ours';
import type { BfclCategory } from '../../eval/bfcl/categories';
import { loadCategory } from '../../eval/bfcl/load';
import { pickCases } from '../../eval/bfcl/pick-cases';
import { toolName } from '../../eval/bfcl/tool-name';
import type { BfclCase } from '../../eval/bfcl/types';
import { ArmAgents } from '../../eval/run/arm-agents';
import { openCaseAgent } from '../../eval/run/case-agent';
import type { CaseResult } from '../../eval/run/case-result';
import { caseTools } from '../../eval/run/case-tools';
import { runCase } from '../../eval/run/run-case';
import { runEval } from '../../eval/run/run-eval';
import type { ModelOptions } from '../../src/model/engine';
import { estimateTokens } from '../../src/model/token-estimate';
import { toDeclaration } from '../../src/tools/to-declaration';
import { hasInstructModel, INSTRUCT_MODEL_URL } from '../real-model';
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

/**
 * The sample `npm test` runs on a real model: the instruction-tuned Qwen2.5-Coder 0.5B (the project's default
 * real model, whose chat template knows tools), ours and native on one of BFCL's shortest cases, the factorial
 * of 5 (simple_python_97: one function, one integer). One case: a prompt of ~185 tokens is prefilled at ~2–5
 * tokens a second on one thread of this shared 2-core machine (measured: ours 99–156 s, native 73–184 s, as
 * the load varied). An irrelevance case on both arms doubled that (irrelevance_8, measured once: ours 128 s and native 115 s,
 * both correct; native's only because llama.cpp read no call from the fenced one it wrote), so it is left to
 * `npm run eval`. The base model's path (Gemma 3 270M) is tested in test/model/wllama/.
 */
describe.skipIf(!there || !hasInstructModel())('the eval on Qwen2.5-Coder 0.5B Instruct', () => {
  test('ours and native on a BFCL case: both judged, our call valid, native given the tools', async () => {
    const simple = await caseNamed('simple_python', 'simple_python_97');
    const agents = new ArmAgents();
    const ask = async (testCase: BfclCase, arm: Arm, maxTokens: number, note = '') => {
      const result = await runCase(agents, {
        testCase,
        arm: arm.name,
        modelLabel: 'Qwen2.5-Coder 0.5B',
        model: modelOf(arm),
        maxTokens,
      });
      console.info(
        `0.5B ${result.arm} ${result.id}${note}: ${result.verdict}${result.rule ? ` (${result.rule})` : ''}, ` +
          `${result.promptTokens} prompt tokens, ${result.completionTokens} written, ${result.seconds.toFixed(1)} s ` +
          `(start ${result.startSeconds.toFixed(1)} s), calls ${JSON.stringify(result.calls)}, raw ${JSON.stringify(result.raw)}`,
      );
      return result;
    };
    try {
      const held = await ask(simple, ours, 40);
      const given = await ask(simple, native, 40);
      // The same question with the tools left out, on native's same agent (llama.cpp's prefix cache keeps the
      // start of the prompt): what the template adds for the tools. One token of answer: only the prompt counts.
      const bare = await ask({ ...simple, functions: [] }, native, 1, ' (no tools)');

      for (const result of [held, given, bare])
        expect(result.verdict, `${result.arm} ${result.id}: ${result.why}`).not.toBe('error');
      // Our grammar: the call is readable and valid under the function's schema.
      expect(
        held.calls.map((call) => call.name),
        held.raw,
      ).toEqual([toolName('math.factorial')]);
      expect(held.valid, held.raw).toBe(1);

      // Native really received the tools: its prompt is longer than the same question's without them by at least
      // the tools as native-tools-engine.ts sends them, in JSON (estimated for Qwen's tokenizer, within 10% on JSON:
      // token-estimate.ts); the template adds its instructions for calling on top (measured: 188 against 37, the
      // JSON some 77 tokens).
      const sent = caseTools(simple)
        .tools.map(toDeclaration)
        .map(({ name, description, parameters }) => ({
          type: 'function',
          function: { name, description, parameters },
        }));
      console.info(
        `0.5B native on ${simple.id}: ${given.promptTokens! - bare.promptTokens!} prompt tokens more with the tools ` +
          `than without; their JSON alone is some ${estimateTokens(JSON.stringify(sent), 'qwen')}; ours read ${held.promptTokens}`,
      );
      expect(given.promptTokens! - bare.promptTokens!).toBeGreaterThanOrEqual(
        estimateTokens(JSON.stringify(sent), 'qwen'),
      );
      // And it answers with the case's function, whose name (math_factorial) is only in the tools. Whether llama.cpp
      // reads a call from that answer is the model's affair, and the arm's score: its Hermes parser reads
      // <tool_call> blocks, and the 0.5B writes the call in a ```json fence (measured: no call, wrong_count).
      expect(given.raw).toContain(toolName('math.factorial'));
    } finally {
      await agents.close();
    }
  }, 600_000);
});

describe.skipIf(!there || !hasInstructModel())(
  'ours on Qwen2.5-Coder 0.5B Instruct, whose own first words are a ```json fence',
  () => {
    // Unconstrained, the 0.5B opens this case with its call in a ```json fence (native's raw answer). Kept from
    // opening a turn with a fence, it wrote a sentence first, then the fenced call, and went on explaining it
    // (measured: 109 tokens, and before the fence was held, cut off by a 128-token cap, the call never ran). Now the
    // turn opens with the fence, held as a call, and ends at it. (BFCL wants "Washington" for the city, not
    // "Washington, DC".)
    test('a call it opens its turn with in a ```json fence is held, read and valid, and its turn ends there', async () => {
      const weather = await caseNamed('live_simple', 'live_simple_203-116-11');
      const agents = new ArmAgents();
      try {
        const maxTokens = 128;
        const result = await runCase(agents, {
          testCase: weather,
          arm: ours.name,
          modelLabel: 'Qwen2.5-Coder 0.5B',
          model: modelOf(ours),
          maxTokens,
        });
        console.info(
          `0.5B ours ${result.id}: ${result.verdict}, ${result.completionTokens} written, ${result.seconds.toFixed(1)} s, ` +
            `calls ${JSON.stringify(result.calls)}, raw ${JSON.stringify(result.raw)}`,
        );
        expect(result.raw).toMatch(/^```json\n\{"name": "Weather_1_GetWeather", "arguments": \{[^`]*\}\}\n```\s*$/);
        expect(result.unreadable, result.raw).toBe(0);
        expect(result.valid, result.raw).toBe(1);
        expect(result.calls.map((call) => call.name)).toEqual(['Weather_1_GetWeather']);
        expect(result.completionTokens, result.raw).toBeLessThan(maxTokens);
      } finally {
        await agents.close();
      }
    }, 600_000);
  },
);

function modelOf(arm: Arm): ModelOptions {
  const model = arm.modelFor({ kind: 'gguf', url: INSTRUCT_MODEL_URL });
  if (isUnavailable(model)) throw new Error(model.unavailable);
  return model;
}

async function caseNamed(category: BfclCategory, id: string): Promise<BfclCase> {
  const found = (await loadCategory(category, read)).find((testCase) => testCase.id === id);
  if (!found) throw new Error(`BFCL's ${category} has no ${id}.`);
  return found;
}
