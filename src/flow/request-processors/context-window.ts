/**
 * Keeps the request inside the model's window (model/context-window.ts):
 * when the conversation no longer fits, the oldest turns go in one large
 * block, so the steps that follow extend the same prefix. Never the system
 * prompt, the newest user message or the pending call.
 */
import { AgentError } from '../../errors';
import type { ModelEngine } from '../../model/engine';
import { measureContext } from '../../model/context-usage';
import { fitToContextWindow, type FitResult } from '../../model/context-window';
import type { RequestProcessor, StepRequest } from '../types';

export const contextWindowProcessor: RequestProcessor = (inv, request) => {
  const { contextWindow } = inv.engine.info;
  const fitted = fitStep(inv.engine, request);
  if (!fitted.fits) {
    throw new AgentError(
      'context-overflow',
      `This step does not fit the model's context window (${contextWindow} tokens) even after dropping the oldest turns: the instructions, tool descriptions and the newest turn alone are too long. Shorten the instructions or tool descriptions, offer fewer tools (a toolkit graph), or use a model with a larger window.`,
    );
  }
  request.messages = fitted.messages;
  request.trimmed = fitted.dropped;
};

/** The step's messages as the window guard keeps them; `fits` is false when even what must stay is too long. */
export function fitStep(engine: ModelEngine, request: StepRequest): FitResult {
  const { contextWindow } = engine.info;
  const fixed = measureContext(engine, { system: request.system.join('\n\n'), tools: request.tools, messages: [] });
  return fitToContextWindow(request.messages, {
    contextWindow: Math.max(0, contextWindow - fixed.instructions - fixed.tools),
    countTokens: counterOf(engine),
    reserveForAnswer: reserveForAnswer(contextWindow),
  });
}

/**
 * One counting function per engine and model, so that the window guard's
 * per-message counts last from step to step and run to run, and a model
 * switch counts anew. The engine's state, not a run's: kept by engine.
 */
const counters = new WeakMap<ModelEngine, { modelId: string; count: (text: string) => number }>();

function counterOf(engine: ModelEngine): (text: string) => number {
  const { modelId } = engine.info;
  let counter = counters.get(engine);
  if (counter?.modelId !== modelId)
    counters.set(engine, (counter = { modelId, count: (text) => engine.countTokens(text) }));
  return counter.count;
}

/** Tokens of the window kept for the model's answer. */
function reserveForAnswer(contextWindow: number): number {
  return Math.min(1024, Math.floor(contextWindow / 4));
}
