/**
 * The toolkit graph as the worker holds it for one agent: loaded at start,
 * consulted by the loop each step, changed through agent.toolkit.
 */
import { AgentError } from '../errors';
import type { SessionStore } from '../session/store';
import type { ToolSelector } from '../flow/types';
import type { HostConfig } from './protocol';

export interface ToolkitBinding {
  /** A selector for one invocation, or undefined when the agent uses no graph. */
  selector(): ToolSelector | undefined;
  call(method: string, args: unknown[], store: () => SessionStore): Promise<unknown>;
}

export async function createToolkitBinding(_config: HostConfig): Promise<ToolkitBinding> {
  return {
    selector: () => undefined,
    call: async (method) => {
      throw new AgentError('invalid-options', `agent.toolkit.${method} is not available in this build yet.`);
    },
  };
}
