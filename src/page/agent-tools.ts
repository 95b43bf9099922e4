/**
 * The agent's page tools: their code and schemas stay on the page (ToolHost),
 * the worker of the moment gets their declarations. A tool enters the
 * ToolHost before the worker hears of it, so a worker that restarts meanwhile
 * is handed it with the rest (the supervisor asks for `declared()`).
 */
import type * as Comlink from 'comlink';
import type { ToolsApi } from '../contract/protocol';
import type { ToolDeclaration } from '../tools/declaration';
import { asTool, type Tool } from '../tools/define-tool';
import { ToolHost } from './tool-host';
import {
  exposeToWebMCP,
  findModelContext,
  type ExposeToWebMCPOptions,
  type ModelContextLike,
  type WebMCPExposure,
} from './webmcp';

export class AgentTools {
  /** Runs the tools for the worker (page-api.ts), and tells the agent which calls start (decision-run.ts). */
  readonly host: ToolHost;

  constructor(
    tools: readonly Tool[],
    private readonly remote: Comlink.Remote<ToolsApi>,
  ) {
    // An outcome that arrives after its run moved on is still the call's: the worker records it.
    this.host = new ToolHost((request, outcome) => {
      void this.remote.recordLate(request, outcome).catch(() => undefined);
    });
    for (const tool of tools) this.host.register(tool);
  }

  declared(): ToolDeclaration[] {
    return this.host.declared();
  }

  async register(given: Tool): Promise<void> {
    const declaration = this.host.register(asTool(given, 'registerTool'));
    // Sent now, before any run the page starts after this call (awaited or not), so that run sees it.
    await this.remote.register([declaration]);
  }

  async unregister(name: string): Promise<void> {
    this.host.unregister(name);
    await this.remote.unregister(name);
  }

  exposeToWebMCP(modelContext?: ModelContextLike, options?: ExposeToWebMCPOptions): Promise<WebMCPExposure> {
    return exposeToWebMCP([...this.host.tools.values()], modelContext ?? findModelContext(), options);
  }
}
