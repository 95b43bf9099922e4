/**
 * A run: every case through every arm, one at a time (the machines that run
 * this have few cores and one model), each result yielded as it is judged.
 * Arms that cannot run the model are refused before anything starts.
 */
import type { ModelProgress } from '../../src/model/engine';
import { describeModel, isUnavailable, type Arm, type EvalModel } from '../arms/arm';
import type { BfclCase } from '../bfcl/types';
import { expectedFor, mechanicsAnswer } from '../mechanics/script';
import type { CaseResult } from './case-result';
import { ArmAgents } from './arm-agents';
import { runCase } from './run-case';

export interface EvalPlan {
  cases: readonly BfclCase[];
  arms: readonly Arm[];
  model: EvalModel;
  /** Picks the mechanics check's mistakes (the sample has its own seed). */
  seed: string;
  /** The most tokens a case's answer may take, in every arm. */
  maxTokens?: number;
  /** How each case is asked: one model step (default), or a run through the agent's loop. */
  through?: 'step' | 'loop';
  /** Case and arm pairs a resumed run judged before (judgedKey): they are not asked again. */
  judged?: ReadonlySet<string>;
}

/** A case and arm pair as EvalPlan.judged names it. */
export const judgedKey = (id: string, arm: string): string => `${id} ${arm}`;

export interface EvalHooks {
  signal?: AbortSignal;
  /** Before each case of each arm: which, and how far the run is. */
  onCase?: (testCase: BfclCase, arm: Arm, index: number, total: number) => void;
  onModelProgress?: (progress: ModelProgress) => void;
}

/** Why arms cannot run this model, one line each; empty when all can. */
export function unavailableArms(arms: readonly Arm[], model: EvalModel): string[] {
  const probe = model.kind === 'mechanics' ? { calls: [], text: '', cut: false } : undefined;
  return arms.flatMap((arm) => {
    const options = arm.modelFor(model, probe);
    return isUnavailable(options) ? [`${arm.name}: ${options.unavailable}`] : [];
  });
}

export async function* runEval(plan: EvalPlan, hooks: EvalHooks = {}): AsyncGenerator<CaseResult> {
  const refused = unavailableArms(plan.arms, plan.model);
  if (refused.length) throw new Error(`These arms cannot run ${describeModel(plan.model)}:\n${refused.join('\n')}`);
  const asked = (testCase: BfclCase, arm: Arm) => !plan.judged?.has(judgedKey(testCase.id, arm.name));
  const total = plan.cases.reduce((sum, testCase) => sum + plan.arms.filter((arm) => asked(testCase, arm)).length, 0);
  let index = 0;
  const agents = new ArmAgents();
  try {
    for (const testCase of plan.cases) {
      const script = plan.model.kind === 'mechanics' ? mechanicsAnswer(testCase, plan.seed) : undefined;
      for (const arm of plan.arms.filter((candidate) => asked(testCase, candidate))) {
        if (hooks.signal?.aborted) return;
        hooks.onCase?.(testCase, arm, index++, total);
        const model = arm.modelFor(plan.model, script);
        if (isUnavailable(model)) throw new Error(`${arm.name}: ${model.unavailable}`);
        const result = await runCase(agents, {
          testCase,
          arm: arm.name,
          modelLabel: describeModel(plan.model),
          model: hooks.onModelProgress ? { ...model, onProgress: hooks.onModelProgress } : model,
          maxTokens: plan.maxTokens,
          ...(plan.through && { through: plan.through }),
          signal: hooks.signal,
        });
        if (script) result.expected = { ...expectedFor(script, arm, testCase), kind: script.kind };
        yield result;
      }
    }
  } finally {
    await agents.close();
  }
}
