/**
 * One case through the runtime as a page uses it: an agent with the case's
 * functions as tools, the case's messages, one model step (BFCL judges the
 * calls of one turn), then the judge. The calls judged are those the reader
 * read (the afterModel callback sees them before any check), so a call that
 * is readable but invalid is judged as BFCL would, and counted as not valid.
 */
import { createAgent, isAgentError } from '../../src/index';
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

export async function runCase({ testCase, arm, modelLabel, model, signal }: CaseRun): Promise<CaseResult> {
  const base = { id: testCase.id, category: testCase.category, arm, model: modelLabel };
  const { tools, ran } = caseTools(testCase);
  const { instructions, text } = casePrompt(testCase);
  let read: ModelCall[] = [];
  const t0 = performance.now();
  let startSeconds = 0;
  try {
    const agent = await createAgent({
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
    startSeconds = (performance.now() - t0) / 1000;
    try {
      const { events } = await agent.send(text, { signal });
      const step = events.find((event) => event.content?.role === 'model');
      if (!step) return failed(base, startSeconds, events);
      const attempts = step.content!.parts.filter((part) => 'functionCall' in part).length;
      const unreadable = attempts - read.length;
      return {
        ...base,
        calls: read,
        attempts,
        unreadable,
        valid: ran.length,
        ...judge(testCase, { calls: read, unreadable }),
        promptTokens: step.usage?.promptTokens,
        completionTokens: step.usage?.completionTokens,
        seconds: (step.timing?.ms ?? 0) / 1000,
        startSeconds,
        raw: step.raw,
      };
    } finally {
      await agent.close();
    }
  } catch (error) {
    return { ...base, ...empty, verdict: 'error', why: messageOf(error), seconds: 0, startSeconds };
  }
}

const empty = { calls: [], attempts: 0, unreadable: 0, valid: 0 };

/** The run ended before the model answered: the ending event says why. */
function failed(
  base: Pick<CaseResult, 'id' | 'category' | 'arm' | 'model'>,
  startSeconds: number,
  events: AgentEvent[],
): CaseResult {
  const error = events.find((event) => event.error)?.error;
  return {
    ...base,
    ...empty,
    verdict: 'error',
    why: error ? `${error.code}: ${error.message}` : 'no model step',
    seconds: 0,
    startSeconds,
  };
}

function messageOf(error: unknown): string {
  if (isAgentError(error)) return `${error.code}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}
