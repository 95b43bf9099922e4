/**
 * The page's tools as the worker knows them: their declarations, checked once here, which the loop
 * reads each step; where a running call's streamed chunks go; and a call's outcome that came too late.
 */
import type { ToolDeclaration } from '../../tools/declaration';
import { checkDeclaration } from '../../tools/check-declaration';
import type { ToolOutcome } from '../../tools/invoke-tool';
import { publishEvent } from '../../session/broadcast';
import { recordLate } from '../../flow/record-late';
import type { ToolCallRequest, ToolsApi } from '../../contract/protocol';
import type { Current } from '../ready';

export class ToolsService implements ToolsApi {
  /** Read by the loop (AgentContext.tools): a tool registered mid-run is seen from its next step. */
  readonly declared = new Map<string, ToolDeclaration>();
  /** Where the page's streamed chunks of a running call go, by call id (the page runner sets them). */
  readonly chunkSinks = new Map<string, (chunk: unknown) => void>();

  constructor(private readonly current: Current) {}

  /** Every tool is checked before any is kept: one bad declaration registers none. */
  async register(tools: ToolDeclaration[]): Promise<void> {
    for (const tool of tools) checkDeclaration(tool);
    for (const tool of tools) this.declared.set(tool.name, tool);
  }

  async unregister(name: string): Promise<void> {
    this.declared.delete(name);
  }

  /** A streamed piece of a running call's output, on the worker's one port like every call. */
  chunk(callId: string, chunk: unknown): void {
    this.chunkSinks.get(callId)?.(chunk);
  }

  recordLate(request: ToolCallRequest, outcome: ToolOutcome): Promise<void> {
    const { context, config } = this.current();
    return recordLate({ ...context, emit: (event) => publishEvent(config.dbName, event) }, request, outcome);
  }
}
