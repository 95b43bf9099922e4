/** What crosses between a content script and the extension page that hosts the agent. */
import type { ToolDeclaration } from '../tools/declaration';
import type { ToolOutcome } from '../tools/invoke-tool';

/** The content script's tools, as the host sees them through comlink. */
export interface ContentToolsApi {
  declarations(): ToolDeclaration[];
  callTool(request: { callId: string; name: string; args: unknown }): Promise<ToolOutcome>;
  abortTool(callId: string): void;
}

export const TOOLS_PORT = 'inpage-agent/tools';
