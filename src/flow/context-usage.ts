/**
 * agent.contextUsage(): how the next step would spend the model's window,
 * measured on the request the loop would build now (the run's instructions
 * and tools, the conversation after trimming), without running anything.
 * An engine that estimates (wllama: llama.cpp's tokenizer is not at hand
 * synchronously) has its counts scaled as the window guard scales them, by
 * what the steps so far showed the estimate falls short by (token-scale.ts);
 * a tokenizer's count (web-llm) is reported as it is.
 */
import type { ContextUsage } from '../model/context-usage';
import { measureContext } from '../model/context-usage';
import { newId, type AgentEvent } from '../session/event';
import { currentAgent } from './agents';
import { buildStep, defaultRequestProcessors } from './request-processors/build-request';
import { contextWindowProcessor, fitStep } from './request-processors/context-window';
import { newRunState } from './run-state';
import { tokenScale } from './token-scale';
import type { AgentContext, Invocation } from './types';

export async function nextStepUsage(ctx: AgentContext, history: readonly AgentEvent[]): Promise<ContextUsage> {
  const inv: Invocation = {
    ...ctx,
    invocationId: newId('inv'),
    history: [...history],
    state: {},
    signal: new AbortController().signal,
    emit: () => undefined,
    run: newRunState(),
  };
  const agent = inv.agents.get(currentAgent(inv.history, inv.agents, inv.rootAgent))!;
  // The window guard would refuse a step that cannot fit; here it is measured as it stands.
  const processors = (ctx.requestProcessors ?? defaultRequestProcessors).filter((p) => p !== contextWindowProcessor);
  const step = await buildStep(inv, agent, processors);
  const fitted = fitStep(ctx.engine, step);
  const usage = measureContext(ctx.engine, {
    system: step.system.join('\n\n'),
    tools: step.tools,
    messages: fitted.fits ? fitted.messages : step.messages,
  });
  const scale = ctx.engine.countsWithTokenizer?.() ? 1 : tokenScale(ctx.engine);
  if (scale === 1) return usage;
  const scaled = (tokens: number) => Math.ceil(tokens * scale);
  const parts = {
    instructions: scaled(usage.instructions),
    tools: scaled(usage.tools),
    history: scaled(usage.history),
  };
  return { ...usage, ...parts, free: Math.max(0, usage.window - parts.instructions - parts.tools - parts.history) };
}
