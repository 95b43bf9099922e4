/**
 * A model's agent for a run, asked one case after another: the model loads
 * once (a GGUF is 253 MB and seconds to load; a run has thousands of cases),
 * and each case is one step of it through agent.generate, which records
 * nothing: the step's messages are the case's system messages and question
 * alone, its tools the case's functions, so no case sees another (a test
 * proves it). What the step read is judged; a readable call counts as valid
 * when it names one of the case's tools and its arguments pass that tool's
 * schema, the check a call passes before its tool runs in an agent's loop.
 */
import { createAgent, isAgentError, type Agent } from '../../src/index';
import type { ChatMessage } from '../../src/model/engine';
import type { ModelOptions } from '../../src/model/model-options';
import type { Usage } from '../../src/session/event';
import { toDeclaration } from '../../src/tools/to-declaration';
import { validateToolArgs } from '../../src/tools/validate-args';
import type { ArmName } from '../arms/arm';
import type { ArmAgentOptions } from '../arms/arm-agent-options';
import { judge } from '../bfcl/judge';
import type { BfclCase, ModelCall } from '../bfcl/types';
import { casePrompt } from './case-prompt';
import type { CaseResult } from './case-result';
import { caseTools } from './case-tools';

export interface CaseRun {
  testCase: BfclCase;
  arm: ArmName;
  /** The model as tables name it. */
  modelLabel: string;
  model: ModelOptions;
  /** The most tokens a case's answer may take (the same for every arm). */
  maxTokens?: number;
  /** 'step' (default): one model step through agent.generate; 'loop': a run through agent.send (case-loop.ts). */
  through?: 'step' | 'loop';
  signal?: AbortSignal;
}

export interface CaseAgent {
  /** One step of the model on this case, judged. */
  step(run: Omit<CaseRun, 'model'>): Promise<CaseResult>;
  close(): Promise<void>;
}

export async function openCaseAgent(
  model: ModelOptions,
  signal?: AbortSignal,
  options: ArmAgentOptions = {},
): Promise<CaseAgent> {
  const t0 = performance.now();
  const agent: Agent = await createAgent({ ...options, model, storage: 'memory', signal });
  let startSeconds = (performance.now() - t0) / 1000;
  return {
    async step(run) {
      const started = startSeconds;
      startSeconds = 0; // the agent was started once, for its first case
      return { ...(await stepOf(agent, run)), startSeconds: started };
    },
    close: () => agent.close(),
  };
}

async function stepOf(agent: Agent, run: Omit<CaseRun, 'model'>): Promise<Omit<CaseResult, 'startSeconds'>> {
  const { testCase, arm, modelLabel, maxTokens, signal } = run;
  const base = { id: testCase.id, category: testCase.category, arm, model: modelLabel };
  const { tools } = caseTools(testCase);
  const { instructions, text } = casePrompt(testCase);
  const messages: ChatMessage[] = [
    ...(instructions ? [{ role: 'system' as const, content: instructions }] : []),
    { role: 'user', content: text },
  ];
  const calls: ModelCall[] = [];
  let unreadable = 0;
  let usage: Usage | undefined;
  let raw: string | undefined;
  const t0 = performance.now();
  const deltas = agent.generate(
    { messages, tools: tools.map(toDeclaration), ...(maxTokens && { sampling: { maxTokens } }) },
    { signal },
  );
  for await (const delta of deltas) {
    if (delta.type === 'tool-call') calls.push({ name: delta.call.name, args: delta.call.args });
    else if (delta.type === 'tool-call-error') unreadable++;
    else if (delta.type === 'finish') ({ usage, raw } = delta);
  }
  const seconds = (performance.now() - t0) / 1000;
  let valid = 0;
  for (const call of calls) {
    const tool = tools.find((candidate) => candidate.name === call.name);
    if (tool && (await validateToolArgs(tool, call.args)).ok) valid++;
  }
  return {
    ...base,
    calls,
    attempts: calls.length + unreadable,
    unreadable,
    valid,
    ...judge(testCase, { calls, unreadable }),
    promptTokens: usage?.promptTokens,
    completionTokens: usage?.completionTokens,
    seconds,
    raw,
  };
}

const NOTHING = { calls: [], attempts: 0, unreadable: 0, valid: 0, seconds: 0 };

/** A case that could not start or failed before the model answered, as a result line. */
export function startFailure(run: CaseRun, error: unknown): CaseResult {
  const why = isAgentError(error)
    ? `${error.code}: ${error.message}`
    : error instanceof Error
      ? error.message
      : String(error);
  const { testCase, arm, modelLabel } = run;
  return {
    id: testCase.id,
    category: testCase.category,
    arm,
    model: modelLabel,
    ...NOTHING,
    verdict: 'error',
    why,
    startSeconds: 0,
  };
}
