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
import { tokenScale } from '../token-scale';
import type { RequestProcessor, RunState, StepRequest } from '../types';

export const contextWindowProcessor: RequestProcessor = (inv, request) => {
  const { contextWindow } = inv.engine.info;
  const fitted = fitStep(inv.engine, request, inv.run);
  if (!fitted.fits) {
    throw new AgentError(
      'context-overflow',
      `This step does not fit the model's context window (${contextWindow} tokens) even after dropping the oldest turns: the instructions, tool descriptions and the newest turn alone are too long. Shorten the instructions or tool descriptions, offer fewer tools (a toolkit graph), or use a model with a larger window.`,
    );
  }
  request.messages = fitted.messages;
  request.trimmed = fitted.dropped;
  request.estimatedTokens = fitted.tokens + (inv.run.fixedTokens?.tokens ?? 0);
};

/**
 * The step's messages as the window guard keeps them; `fits` is false when
 * even what must stay is too long. The system prompt and the tools are the
 * same for every step of a run: `run` keeps their count while they stay so.
 * The counts are the engine's, and the window they may fill shrinks by how
 * far they fell short of the model's own in earlier steps (token-scale.ts).
 */
export function fitStep(engine: ModelEngine, request: StepRequest, run?: Pick<RunState, 'fixedTokens'>): FitResult {
  const { contextWindow } = engine.info;
  const system = request.system.join('\n\n');
  let fixed = run?.fixedTokens;
  const { modelId } = engine.info;
  if (!fixed || fixed.modelId !== modelId || fixed.system !== system || !sameItems(fixed.tools, request.tools)) {
    const usage = measureContext(engine, { system, tools: request.tools, messages: [] });
    fixed = { modelId, system, tools: [...request.tools], tokens: usage.instructions + usage.tools };
    if (run) run.fixedTokens = fixed;
  }
  const promptWindow = (contextWindow - reserveForAnswer(contextWindow)) / tokenScale(engine);
  return fitToContextWindow(request.messages, {
    contextWindow: Math.max(0, Math.floor(promptWindow) - fixed.tokens),
    countTokens: counterOf(engine),
    reserveForAnswer: 0,
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

function sameItems<T>(a: readonly T[], b: readonly T[]): boolean {
  return a.length === b.length && a.every((item, i) => item === b[i]);
}

/** Tokens of the window kept for the model's answer. */
function reserveForAnswer(contextWindow: number): number {
  return Math.min(1024, Math.floor(contextWindow / 4));
}
