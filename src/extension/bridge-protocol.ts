/**
 * What crosses between a content script and the extension page that hosts
 * the agent. A runtime port carries JSON, not structured clones, so all of it
 * is plain data: comlink's own wire messages, tool declarations, outcomes.
 */
import type { ToolDeclaration } from '../tools/declaration';
import type { ToolOutcome } from '../tools/invoke-tool';

/** The content script's tools, as the host sees them through comlink. */
export interface ContentToolsApi {
  declarations(): ToolDeclaration[];
  callTool(request: { callId: string; name: string; args: unknown }): Promise<ToolOutcome>;
  abortTool(callId: string): void;
}

/** The name of a content script's tool port; the host refuses it from anyone but this extension's tabs. */
export const TOOLS_PORT = 'inpage-agent/tools';

/** Sent by the host on a tool port once the agent holds that tab's tools. */
export const READY_MESSAGE = { type: 'inpage-agent/ready' } as const;
