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
import { AgentError } from '../errors';
import type { ChatMessage, ModelEngine, ModelRequest, ToolChoice } from '../model/engine';
import { measureContext } from '../model/context-usage';
import { fitToContextWindow, type FitResult } from '../model/context-window';
import type { ToolDeclaration } from '../tools/declaration';
import { agentTools } from './agents';
import { historyToMessages } from './history-to-messages';
import type { AgentSpec, Invocation } from './types';

export interface StepRequest {
  agent: AgentSpec;
  /** Sections of the system prompt, joined in order. */
  system: string[];
  messages: ChatMessage[];
  /** Described in the prompt; the same for every step of the run. */
  tools: ToolDeclaration[];
  /** What this step may call (a subset of `tools`); absent: all of them. */
  allowedTools?: string[];
  /** Messages the context-window guard dropped, said in the model event. */
  trimmed: number;
  toolChoice?: ToolChoice;
}

export type RequestProcessor = (inv: Invocation, request: StepRequest) => void | Promise<void>;

export const instructionsProcessor: RequestProcessor = (inv, request) => {
  if (request.agent.instructions) request.system.push(request.agent.instructions);
  if (inv.agents.size > 1) request.system.push(`You are the agent "${request.agent.name}".`);
};

export const historyProcessor: RequestProcessor = (inv, request) => {
  request.messages.push(...historyToMessages(inv.history));
};

/** What a run describes, per agent: fixed at the run's first step with that agent. */
const runDescriptions = new WeakMap<Invocation, Map<string, { described: string[]; prompt?: string }>>();

/**
 * The agent's own tools and the built-in agent tools, described once per
 * run. With a toolkit graph, the run describes every tool the graph can
 * recommend from its actions, and each step allows the ones recommended now.
 */
export const toolsProcessor: RequestProcessor = (inv, request) => {
  const mine = request.agent.tools ? new Set(request.agent.tools) : undefined;
  const own = [...inv.tools.values()].filter((tool) => !mine || mine.has(tool.name));
  const builtIn = agentTools(request.agent, inv.agents, inv.rootAgent);
  if (!inv.selector) {
    request.tools.push(...own, ...builtIn);
    return;
  }
  let byAgent = runDescriptions.get(inv);
  if (!byAgent) runDescriptions.set(inv, (byAgent = new Map()));
  let run = byAgent.get(request.agent.name);
  if (!run) byAgent.set(request.agent.name, (run = inv.selector.describeRun(own.map((tool) => tool.name))));
  const described = new Set(run.described);
  // A tool unregistered during the run leaves the prompt (inv.tools is live); one added waits for the next run.
  const tools = own.filter((tool) => described.has(tool.name));
  if (run.prompt) request.system.push(run.prompt);
  const allowed = new Set(inv.selector.select(tools.map((tool) => tool.name)).offered);
  request.tools.push(...tools, ...builtIn);
  request.allowedTools = [...tools.filter((tool) => allowed.has(tool.name)), ...builtIn].map((tool) => tool.name);
};

/**
 * The run's tool choice for this step. 'required' and a named tool hold for
 * the run's first model step only: once the tool has been called, the model
 * must be free to answer, or the run could only end at maxSteps.
 */
export const toolChoiceProcessor: RequestProcessor = (inv, request) => {
  const choice = inv.toolChoice;
  if (!choice || choice === 'auto') return;
  if (choice === 'none') {
    request.toolChoice = 'none';
    return;
  }
  const steppedBefore = inv.history.some(
    (event) => event.invocationId === inv.invocationId && event.content?.role === 'model',
  );
  if (!steppedBefore) request.toolChoice = choice;
};

/**
 * Keeps the request inside the model's window (model/context-window.ts):
 * when the conversation no longer fits, the oldest turns go in one large
 * block, so the steps that follow extend the same prefix. Never the system
 * prompt, the newest user message or the pending call.
 */
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
 * per-message counts last from step to step, and a model switch counts anew.
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
export function reserveForAnswer(contextWindow: number): number {
  return Math.min(1024, Math.floor(contextWindow / 4));
}

export const defaultRequestProcessors: RequestProcessor[] = [
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
): Promise<{ request: ModelRequest; trimmed: number }> {
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
  };
}
