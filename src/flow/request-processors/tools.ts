/**
 * The agent's own tools and the built-in agent tools, described once per
 * run. With a toolkit graph, the run describes every tool the graph can
 * recommend from its actions, and each step allows the ones recommended now:
 * the prompt stays the same for the whole run (and the engine's KV cache
 * with it), the grammar narrows.
 */
import { agentTools } from '../agents';
import type { RequestProcessor } from '../types';

export const toolsProcessor: RequestProcessor = (inv, request) => {
  const mine = request.agent.tools ? new Set(request.agent.tools) : undefined;
  const own = [...inv.tools.values()].filter((tool) => !mine || mine.has(tool.name));
  const builtIn = agentTools(request.agent, inv.agents, inv.rootAgent);
  if (!inv.selector) {
    request.tools.push(...own, ...builtIn);
    return;
  }
  const { descriptions } = inv.run;
  let run = descriptions.get(request.agent.name);
  if (!run) descriptions.set(request.agent.name, (run = inv.selector.describeRun(own.map((tool) => tool.name))));
  const described = new Set(run.described);
  // A tool unregistered during the run leaves the prompt (inv.tools is live); one added waits for the next run.
  const tools = own.filter((tool) => described.has(tool.name));
  if (run.prompt) request.system.push(run.prompt);
  const allowed = new Set(inv.selector.select(tools.map((tool) => tool.name)).offered);
  request.tools.push(...tools, ...builtIn);
  request.allowedTools = [...tools.filter((tool) => allowed.has(tool.name)), ...builtIn].map((tool) => tool.name);
};
