/**
 * How a step's model request is built: an ordered list of processors, each
 * adding one thing (after ADK's request processors). Adding behaviour is
 * adding a function to the list, not editing the loop.
 */
import { AgentError } from '../errors';
import type { ChatMessage, ModelRequest, ToolChoice } from '../model/engine';
import { fitToContextWindow } from '../model/context-window';
import type { ToolDeclaration } from '../tools/declaration';
import { agentTools } from './agents';
import { historyToMessages } from './history-to-messages';
import type { AgentSpec, Invocation } from './types';

export interface StepRequest {
  agent: AgentSpec;
  /** Sections of the system prompt, joined in order. */
  system: string[];
  messages: ChatMessage[];
  tools: ToolDeclaration[];
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

/** The agent's own tools, narrowed by the toolkit graph, plus the built-in agent tools. */
export const toolsProcessor: RequestProcessor = (inv, request) => {
  const allowed = request.agent.tools ? new Set(request.agent.tools) : undefined;
  const own = [...inv.tools.values()].filter((tool) => !allowed || allowed.has(tool.name));
  let offered = own;
  if (inv.selector) {
    const selection = inv.selector.select(own.map((tool) => tool.name));
    const names = new Set(selection.offered);
    offered = own.filter((tool) => names.has(tool.name));
    if (selection.prompt) request.system.push(selection.prompt);
  }
  request.tools.push(...offered, ...agentTools(request.agent, inv.agents, inv.rootAgent));
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

/** Keeps the request inside the model's window: oldest turns go first, never the system prompt or the pending call. */
export const contextWindowProcessor: RequestProcessor = (inv, request) => {
  const system = request.system.join('\n\n');
  const toolsText = JSON.stringify(request.tools);
  const { contextWindow } = inv.engine.info;
  const reserved = inv.engine.countTokens(system) + inv.engine.countTokens(toolsText);
  const fitted = fitToContextWindow(request.messages, {
    contextWindow: Math.max(0, contextWindow - reserved),
    countTokens: (text) => inv.engine.countTokens(text),
    reserveForAnswer: Math.min(1024, Math.floor(contextWindow / 4)),
  });
  if (!fitted.fits) {
    throw new AgentError(
      'context-overflow',
      `This step does not fit the model's context window (${contextWindow} tokens) even after dropping the oldest turns: the instructions, tool descriptions and the newest turn alone are too long. Shorten the instructions or tool descriptions, offer fewer tools (a toolkit graph), or use a model with a larger window.`,
    );
  }
  request.messages = fitted.messages;
  request.trimmed = fitted.dropped;
};

export const defaultRequestProcessors: RequestProcessor[] = [
  instructionsProcessor,
  historyProcessor,
  toolsProcessor,
  toolChoiceProcessor,
  contextWindowProcessor,
];

export async function buildRequest(
  inv: Invocation,
  agent: AgentSpec,
  processors: readonly RequestProcessor[] = defaultRequestProcessors,
): Promise<{ request: ModelRequest; trimmed: number }> {
  const step: StepRequest = { agent, system: [], messages: [], tools: [], trimmed: 0 };
  for (const processor of processors) await processor(inv, step);
  const messages: ChatMessage[] = step.system.length
    ? [{ role: 'system', content: step.system.join('\n\n') }, ...step.messages]
    : step.messages;
  return {
    request: { messages, tools: step.tools, ...(step.toolChoice && { toolChoice: step.toolChoice }) },
    trimmed: step.trimmed,
  };
}
