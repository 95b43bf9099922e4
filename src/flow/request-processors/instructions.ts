/** The agent's instructions, and its name when a team runs. */
import type { RequestProcessor } from '../types';

export const instructionsProcessor: RequestProcessor = (inv, request) => {
  if (request.agent.instructions) request.system.push(request.agent.instructions);
  if (inv.agents.size > 1) request.system.push(`You are the agent "${request.agent.name}".`);
};
