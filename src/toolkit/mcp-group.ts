/** A group of MCP-shaped tool definitions (e.g. one MCP server's tools/list) as one ToolGroup in the graph. */
import type { Connection, MCPToolListing, ToolkitApi } from './toolkit-api';

export function addMCPToolGroup(
  toolkit: Pick<ToolkitApi, 'addToolGroup'>,
  group: { id: string; name?: string; description?: string },
  tools: MCPToolListing[],
  connectedActions: Connection[],
): Promise<void> {
  return toolkit.addToolGroup(
    { id: group.id, name: group.name ?? group.id, description: group.description ?? `${tools.length} tools` },
    tools.map((tool) => ({ name: tool.name, description: tool.description })),
    connectedActions,
  );
}
