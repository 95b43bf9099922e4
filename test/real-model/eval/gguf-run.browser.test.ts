/**
 * The eval's run on the real instruction-tuned model, Qwen2.5-Coder 0.5B (the mechanics of every arm, on a tiny
 * random-weight model: test/eval/gguf-run.browser.test.ts).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { commands } from 'vitest/browser';
import { isUnavailable, type Arm } from '../../../eval/arms/arm';
import { native } from '../../../eval/arms/native';
import { ours } from '../../../eval/arms/ours';
import type { BfclCategory } from '../../../eval/bfcl/categories';
import { loadCategory } from '../../../eval/bfcl/load';
import { toolName } from '../../../eval/bfcl/tool-name';
import type { BfclCase } from '../../../eval/bfcl/types';
import { ArmAgents } from '../../../eval/run/arm-agents';
import { caseTools } from '../../../eval/run/case-tools';
import { runCase } from '../../../eval/run/run-case';
import type { ModelOptions } from '../../../src/model/model-options';
import { estimateTokens } from '../../../src/model/token-estimate';
import { toDeclaration } from '../../../src/tools/to-declaration';
import { hasSharedData, sharedDataPath } from '../../shared-data';
import { hasInstructModel, INSTRUCT_MODEL_URL } from '../real-model';

const there = hasSharedData('bfcl');
const read = (path: string) => commands.readFile(sharedDataPath('bfcl', path));

/**
 * The sample `npm test` runs on a real model: the instruction-tuned Qwen2.5-Coder 0.5B (the project's default
 * real model, whose chat template knows tools), ours and native on one of BFCL's shortest cases, the factorial
 * of 5 (simple_python_97: one function, one integer). One case: a prompt of ~185 tokens is prefilled at ~2–5
 * tokens a second on one thread of this shared 2-core machine (measured: ours 99–156 s, native 73–184 s, as
 * the load varied). An irrelevance case on both arms doubled that (irrelevance_8, measured once: ours 128 s and native 115 s,
 * both correct; native's only because llama.cpp read no call from the fenced one it wrote), so it is left to
 * `npm run eval`. The base model's path (Gemma 3 270M) is tested in test/real-model/model/wllama/.
 */
describe.skipIf(!there || !hasInstructModel())('the eval on Qwen2.5-Coder 0.5B Instruct', () => {
  // Each arm's agent loads the model once for the file; a case asked after another is asked as if it were the
  // first (test/eval/gguf-run.browser.test.ts), so the tests do not depend on each other's order.
  let agents: ArmAgents;
  beforeAll(() => {
    agents = new ArmAgents();
  });
  afterAll(() => agents?.close());

  test('ours and native on a BFCL case: both judged, our call valid, native given the tools', async () => {
    const simple = await caseNamed('simple_python', 'simple_python_97');
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
  }, 600_000);

  describe('ours, on a case whose own first words are a ```json fence', () => {
    // Unconstrained, the 0.5B opens this case with its call in a ```json fence (native's raw answer). Kept from
    // opening a turn with a fence, it wrote a sentence first, then the fenced call, and went on explaining it
    // (measured: 109 tokens, and before the fence was held, cut off by a 128-token cap, the call never ran). Now the
    // turn opens with the fence, held as a call, and ends at it. (BFCL wants "Washington" for the city, not
    // "Washington, DC".)
    test('a call it opens its turn with in a ```json fence is held, read and valid, and its turn ends there', async () => {
      const weather = await caseNamed('live_simple', 'live_simple_203-116-11');
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
    }, 600_000);
  });
});

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
