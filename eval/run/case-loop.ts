/**
 * A case asked through the agent's loop (`--through=loop`), as a page asks: agent.send with the case's
 * functions as the run's tools and its system messages as the instructions, in an agent of its own (no case
 * sees another). What the judge reads is the run's calls that ran (RunResult.calls), or those it tried when
 * none ran, so the loop's own parts count: the decision layer's call-or-answer, its further calls in the same turn, a retry
 * after a refused call. One step through agent.generate (case-agent.ts) never enters the loop, which is why the
 * arms `ours` and `ours-before` only differ here.
 */
import { createAgent, type AgentEvent } from '../../src/index';
import type { ModelOptions } from '../../src/model/model-options';
import type { ArmAgentOptions } from '../arms/arm-agent-options';
import { judge } from '../bfcl/judge';
import type { CaseRun } from './case-agent';
import { casePrompt } from './case-prompt';
import type { CaseResult } from './case-result';
import { caseTools } from './case-tools';

/** Codes the loop gives a call it could not read (the step's others are the tool's or the page's). */
const UNREADABLE = new Set(['unreadable-call', 'unknown-tool']);

export async function loopCase(run: CaseRun, options: ArmAgentOptions = {}): Promise<CaseResult> {
  const { testCase, arm, modelLabel, maxTokens, signal } = run;
  const { instructions, text } = casePrompt(testCase);
  const { tools } = caseTools(testCase);
  const t0 = performance.now();
  const agent = await createAgent({
    ...options,
    model: withTokenCap(run.model, maxTokens),
    ...(instructions && { instructions }),
    tools,
    storage: 'memory',
    signal,
  });
  try {
    const startSeconds = (performance.now() - t0) / 1000;
    const t1 = performance.now();
    const result = await agent.send(text, { signal });
    const seconds = (performance.now() - t1) / 1000;
    const unreadable = result.calls.filter((call) => UNREADABLE.has(call.error?.code ?? '')).length;
    // What the visitor would get: the calls that ran; when none did, the ones the model tried (a wrong call
    // refused by its schema is still a call where none was asked, or a wrong one).
    const ran = result.calls.filter((call) => call.outcome === 'ran');
    const tried = result.calls.filter((call) => !UNREADABLE.has(call.error?.code ?? ''));
    const calls = (ran.length ? ran : tried).map((call) => ({ name: call.name, args: call.args }));
    const usage = sumUsage(result.events);
    return {
      id: testCase.id,
      category: testCase.category,
      arm,
      model: modelLabel,
      calls,
      attempts: result.calls.length,
      unreadable,
      valid: ran.length,
      ...judge(testCase, { calls, unreadable }),
      ...usage,
      seconds,
      startSeconds,
      raw: result.text,
    };
  } finally {
    await agent.close();
  }
}

/** The eval's cap on a step's tokens, where the engine takes one from the page (llama.cpp's n_predict). */
function withTokenCap(model: ModelOptions, maxTokens: number | undefined): ModelOptions {
  if (!maxTokens || model.engine !== 'wllama') return model;
  return { ...model, completion: { ...model.completion, n_predict: maxTokens } };
}

function sumUsage(events: AgentEvent[]): { promptTokens?: number; completionTokens?: number } {
  const steps = events.filter((event) => event.usage && !event.partial);
  if (!steps.length) return {};
  return {
    promptTokens: steps.reduce((sum, event) => sum + event.usage!.promptTokens, 0),
    completionTokens: steps.reduce((sum, event) => sum + event.usage!.completionTokens, 0),
  };
}
