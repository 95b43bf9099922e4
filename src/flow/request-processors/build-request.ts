/**
 * How a step's model request is built: an ordered list of processors, each
 * adding one thing (after ADK's request processors). Adding behaviour is
 * adding a function to the list, not editing the loop.
 *
 * The request keeps web-llm's KV cache valid from step to step: the system
 * prompt and the described tools are fixed for the run (the toolkit graph's
 * per-step narrowing goes into `allowedTools`, which only the grammar sees),
 * history is replayed as generated, and trimming drops large blocks rarely.
 */
import type { ModelRequest } from '../../model/engine';
import type { AgentSpec, Invocation, RequestProcessor, StepDecision, StepRequest } from '../types';
import type { Usage } from '../../model/usage';
import { decideCallProcessor } from '../decisions/decide-call';
import { retryValuesProcessor } from '../decisions/retry-values';
import { contextWindowProcessor } from './context-window';
import { historyProcessor } from './history';
import { instructionsProcessor } from './instructions';
import { toolChoiceProcessor } from './tool-choice';
import { toolsProcessor } from './tools';
import { requestOf } from './step-request';

export const defaultRequestProcessors: readonly RequestProcessor[] = [
  instructionsProcessor,
  historyProcessor,
  toolsProcessor,
  toolChoiceProcessor,
  retryValuesProcessor,
  contextWindowProcessor,
  // Last: it reads the step as the model will (the window fitted).
  decideCallProcessor,
];

/** The step's parts as the processors leave them. */
export async function buildStep(
  inv: Invocation,
  agent: AgentSpec,
  processors: readonly RequestProcessor[] = defaultRequestProcessors,
): Promise<StepRequest> {
  const step: StepRequest = { agent, system: [], messages: [], tools: [], trimmed: 0 };
  for (const processor of processors) await processor(inv, step);
  return step;
}

export async function buildRequest(
  inv: Invocation,
  agent: AgentSpec,
  processors: readonly RequestProcessor[] = defaultRequestProcessors,
): Promise<{
  request: ModelRequest;
  trimmed: number;
  estimatedTokens?: number;
  decision?: StepDecision;
  decisionUsage?: Usage;
}> {
  const step = await buildStep(inv, agent, processors);
  return {
    request: requestOf(step),
    trimmed: step.trimmed,
    estimatedTokens: step.estimatedTokens,
    ...(step.decision && { decision: step.decision }),
    ...(step.decisionUsage && { decisionUsage: step.decisionUsage }),
  };
}
