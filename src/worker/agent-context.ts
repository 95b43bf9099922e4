/**
 * The loop's context for one agent, made from createAgent's options as the
 * worker received them and the page's side of the connection: the agents,
 * the page's hooks as the flow knows them, and the runner that sends tool
 * calls to the page.
 */
import type { ModelEngine } from '../model/engine';
import type { SessionStore } from '../session/store';
import type { ToolDeclaration } from '../tools/declaration';
import { DEFAULT_AGENT_NAME } from '../flow/agents';
import type { AgentContext, AgentSpec, FlowHooks, ToolRunner, ToolSelector } from '../flow/types';
import type { HostConfig, PageApi } from '../contract/protocol';
import { limitsOf } from '../contract/limit-defaults';
import { decisionsOf } from '../contract/decision-defaults';

export function agentContext(parts: {
  config: HostConfig;
  sessionId: string;
  store: SessionStore;
  engine: ModelEngine;
  tools: ReadonlyMap<string, ToolDeclaration>;
  page: PageApi;
  selector?: ToolSelector;
  /** Where the page's streamed chunks of a running call go, by call id (ToolsApi.chunk). */
  chunkSinks: Map<string, (chunk: unknown) => void>;
}): AgentContext {
  const { config, page } = parts;
  return {
    sessionId: parts.sessionId,
    appName: config.appName,
    userId: config.userId,
    store: parts.store,
    engine: parts.engine,
    tools: parts.tools,
    agents: agentsOf(config),
    rootAgent: config.rootAgent ?? config.agents[0]?.name ?? DEFAULT_AGENT_NAME,
    runner: pageRunner(page, parts.chunkSinks),
    hooks: pageHooks(config, page),
    selector: parts.selector,
    limits: limitsOf(config),
    decisions: decisionsOf(config, config.model.engine),
    toolChoice: config.toolChoice,
  };
}

function agentsOf(config: HostConfig): Map<string, AgentSpec> {
  if (config.agents.length === 0)
    return new Map([[DEFAULT_AGENT_NAME, { name: DEFAULT_AGENT_NAME, instructions: config.instructions }]]);
  return new Map(
    config.agents.map((agent) => [
      agent.name,
      { ...agent, instructions: [config.instructions, agent.instructions].filter(Boolean).join('\n\n') },
    ]),
  );
}

function pageHooks(config: HostConfig, page: PageApi): FlowHooks {
  return {
    has: config.callbacks,
    beforeModel: (request, agentName) => page.callback({ kind: 'beforeModel', request, agentName }),
    afterModel: (response, agentName) => page.callback({ kind: 'afterModel', response, agentName }),
    beforeTool: (call) => page.callback({ kind: 'beforeTool', ...call }),
    afterTool: (call) => page.callback({ kind: 'afterTool', ...call }),
    prepareCalls: (invocationId, calls) => page.prepareCalls(invocationId, calls),
  };
}

/** Runs calls in the page; the run's abort reaches the tool as its ctx.signal. */
function pageRunner(page: PageApi, chunkSinks: Map<string, (chunk: unknown) => void>): ToolRunner {
  return {
    async run(request, { signal, onChunk }) {
      const onAbort = () => void page.abortTool(request.callId);
      signal.addEventListener('abort', onAbort, { once: true });
      if (onChunk) chunkSinks.set(request.callId, onChunk);
      try {
        return await page.callTool(request);
      } finally {
        chunkSinks.delete(request.callId);
        signal.removeEventListener('abort', onAbort);
      }
    },
  };
}
