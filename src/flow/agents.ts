/**
 * Multi-agent after ADK: every agent gets a `transfer_to_agent` tool whose
 * target must be one of the others; a non-root agent also gets `escalate`,
 * which hands the conversation back to its parent (the root agent).
 */
import type { AgentEvent, FunctionCall } from '../session/event';
import type { ToolDeclaration } from '../tools/declaration';
import type { AgentSpec, CallResponse, Invocation } from './types';

export const TRANSFER_TOOL = 'transfer_to_agent';
export const ESCALATE_TOOL = 'escalate';
export const DEFAULT_AGENT_NAME = 'assistant';

function builtin(name: string, description: string, parameters: Record<string, unknown>): ToolDeclaration {
  return {
    name,
    description,
    parameters,
    annotations: { readOnly: true },
    needsApproval: false,
    returnDirect: false,
    longRunning: false,
    timeoutMs: 1000,
    source: 'builtin',
  };
}

/** The built-in tools offered to `agent`, given every agent of the page. */
export function agentTools(
  agent: AgentSpec,
  agents: ReadonlyMap<string, AgentSpec>,
  rootAgent: string,
): ToolDeclaration[] {
  const others = [...agents.values()].filter((other) => other.name !== agent.name);
  if (others.length === 0) return [];
  const list = others.map((other) => `${other.name}${other.description ? `: ${other.description}` : ''}`).join('; ');
  const tools = [
    builtin(TRANSFER_TOOL, `Hand the conversation to another agent better suited to it. Agents: ${list}.`, {
      type: 'object',
      properties: { agent_name: { type: 'string', enum: others.map((other) => other.name) } },
      required: ['agent_name'],
      additionalProperties: false,
    }),
  ];
  if (agent.name !== rootAgent) {
    tools.push(
      builtin(ESCALATE_TOOL, `Hand the conversation back to ${rootAgent} when the request is outside what you do.`, {
        type: 'object',
        properties: { reason: { type: 'string' } },
        additionalProperties: false,
      }),
    );
  }
  return tools;
}

/** The agent in charge: the last transfer in the log wins, else the root. */
export function currentAgent(
  history: readonly AgentEvent[],
  agents: ReadonlyMap<string, AgentSpec>,
  rootAgent: string,
): string {
  for (let i = history.length - 1; i >= 0; i--) {
    const target = history[i]!.actions?.transferToAgent;
    if (target && agents.has(target)) return target;
  }
  return rootAgent;
}

export function isBuiltin(name: string): boolean {
  return name === TRANSFER_TOOL || name === ESCALATE_TOOL;
}

/** The response of transfer_to_agent or escalate: a move to another agent, or why not. */
export function builtinResponse(inv: Invocation, agentName: string, call: FunctionCall, t0: number): CallResponse {
  const ms = () => performance.now() - t0;
  if (call.name === ESCALATE_TOOL) {
    return {
      response: { id: call.id, name: call.name, response: { escalatedTo: inv.rootAgent } },
      ms: ms(),
      transferTo: inv.rootAgent,
      escalate: true,
    };
  }
  const args = (call.args ?? {}) as { agent_name?: unknown };
  const target = typeof args.agent_name === 'string' ? args.agent_name : '';
  if (!inv.agents.has(target) || target === agentName) {
    const others = [...inv.agents.keys()].filter((name) => name !== agentName);
    return {
      response: {
        id: call.id,
        name: call.name,
        response: null,
        error: `No agent named "${target}" to transfer to. Choose one of: ${others.join(', ')}.`,
      },
      ms: ms(),
    };
  }
  return {
    response: { id: call.id, name: call.name, response: { transferredTo: target } },
    ms: ms(),
    transferTo: target,
  };
}
