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
import type { ChatMessage, ModelRequest } from '../../model/engine';
import type { AgentSpec, Invocation, RequestProcessor, StepRequest } from '../types';
import { contextWindowProcessor } from './context-window';
import { historyProcessor } from './history';
import { instructionsProcessor } from './instructions';
import { toolChoiceProcessor } from './tool-choice';
import { toolsProcessor } from './tools';

export const defaultRequestProcessors: readonly RequestProcessor[] = [
  instructionsProcessor,
  historyProcessor,
  toolsProcessor,
  toolChoiceProcessor,
  contextWindowProcessor,
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
): Promise<{ request: ModelRequest; trimmed: number; estimatedTokens?: number }> {
  const step = await buildStep(inv, agent, processors);
  const messages: ChatMessage[] = step.system.length
    ? [{ role: 'system', content: step.system.join('\n\n') }, ...step.messages]
    : step.messages;
  return {
    request: {
      messages,
      tools: step.tools,
      ...(step.allowedTools && { allowedTools: step.allowedTools }),
      ...(step.toolChoice && { toolChoice: step.toolChoice }),
    },
    trimmed: step.trimmed,
    estimatedTokens: step.estimatedTokens,
  };
}
