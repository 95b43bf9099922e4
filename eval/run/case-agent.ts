/**
 * A case's agent: the case's functions as tools, its system messages as
 * instructions, one model step per send (BFCL judges the calls of one turn),
 * the calls as the reader read them (the afterModel callback sees them
 * before any check), then the judge. A readable but invalid call is judged
 * as BFCL would, and counted as not valid (its tool never ran).
 */
import { createAgent, isAgentError, type Agent } from '../../src/index';
import type { ModelOptions, ModelResponse } from '../../src/model/engine';
import type { AgentEvent } from '../../src/session/event';
import type { ArmName } from '../arms/arm';
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
  signal?: AbortSignal;
}

export interface CaseAgent {
  /** Asks the case's question once more, in the same session, and judges the step. */
  step(): Promise<CaseResult>;
  close(): Promise<void>;
}

export async function openCase({ testCase, arm, modelLabel, model, signal }: CaseRun): Promise<CaseAgent> {
  const base = { id: testCase.id, category: testCase.category, arm, model: modelLabel };
  const { tools, ran } = caseTools(testCase);
  const { instructions, text } = casePrompt(testCase);
  let read: ModelCall[] = [];
  const t0 = performance.now();
  const agent: Agent = await createAgent({
    model,
    instructions,
    tools,
    storage: 'memory',
    maxSteps: 1,
    maxToolCallsPerStep: 64,
    callbacks: {
      afterModel: (response: ModelResponse) => {
        read = response.toolCalls.map(({ name, args }) => ({ name, args }));
      },
    },
    signal,
  });
  let startSeconds = (performance.now() - t0) / 1000;
  return {
    async step() {
      read = [];
      const ranBefore = ran.length;
      const { events } = await agent.send(text, { signal });
      const step = events.find((event) => event.content?.role === 'model');
      const started = startSeconds;
      startSeconds = 0; // the agent was started once, for the first step
      if (!step) return { ...failed(events), ...base, startSeconds: started };
      const attempts = step.content!.parts.filter((part) => 'functionCall' in part).length;
      const unreadable = attempts - read.length;
      return {
        ...base,
        calls: read,
        attempts,
        unreadable,
        valid: ran.length - ranBefore,
        ...judge(testCase, { calls: read, unreadable }),
        promptTokens: step.usage?.promptTokens,
        completionTokens: step.usage?.completionTokens,
        seconds: (step.timing?.ms ?? 0) / 1000,
        startSeconds: started,
        raw: step.raw,
      };
    },
    close: () => agent.close(),
  };
}

const NOTHING = { calls: [], attempts: 0, unreadable: 0, valid: 0, seconds: 0 };

/** The run ended before the model answered: the ending event says why. */
function failed(events: AgentEvent[]) {
  const error = events.find((event) => event.error)?.error;
  return { ...NOTHING, verdict: 'error' as const, why: error ? `${error.code}: ${error.message}` : 'no model step' };
}

/** A case that could not even start, as a result line. */
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
