/**
 * The toolkit graph's service as the page reaches it (agent.toolkit): the agent's own graph, bound at
 * init() (toolkit-binding.ts), whose methods the page calls through a comlink proxy.
 */
import type { ToolkitApi } from '../../toolkit/toolkit-api';
import type { Current } from '../ready';

export function toolkitService(current: Current): ToolkitApi {
  return current().toolkit.toolkit;
}
