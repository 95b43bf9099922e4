/**
 * WebMCP: the browser's own registry of page tools for agents
 * (`navigator.modelContext`, in early drafts also `document.modelContext`).
 * exposeToWebMCP offers our tools there, in MCP's shape; importWebMCPTools
 * takes the tools a page registered there, through the registry's listing
 * (`listTools` / `executeTool`, as Chromium's testing surface has them).
 * Everything is feature-detected: where the browser has no registry, nothing
 * happens and the result says so.
 */
import { AgentError, messageOf } from '../errors';
import type { Tool } from '../tools/define-tool';
import { fromMCPTool, toMCPTool, type MCPToolDefinition } from '../tools/mcp';
import { invokeTool } from '../tools/invoke-tool';

/** The part of the WebMCP API we use. */
export interface ModelContextLike {
  registerTool(tool: WebMCPTool): { unregister?(): void } | void;
  unregisterTool?(name: string): void;
  listTools?(): { name: string; description?: string; inputSchema?: unknown; annotations?: MCPToolDefinition['annotations'] }[];
  executeTool?(name: string, input: unknown): Promise<unknown>;
}

export interface WebMCPTool extends MCPToolDefinition {
  execute(input: Record<string, unknown>): Promise<{ content: { type: 'text'; text: string }[]; isError?: boolean }>;
}

/** The browser's registry, or undefined where it has none. */
export function findModelContext(): ModelContextLike | undefined {
  const scope = globalThis as { navigator?: { modelContext?: ModelContextLike }; document?: { modelContext?: ModelContextLike } };
  return scope.navigator?.modelContext ?? scope.document?.modelContext;
}

export function exposeToWebMCP(tools: readonly Tool[], modelContext = findModelContext()): { exposed: string[]; unregister(): void } {
  if (!modelContext) return { exposed: [], unregister: () => undefined };
  const handles: (() => void)[] = [];
  for (const tool of tools) {
    const handle = modelContext.registerTool({
      ...toMCPTool(tool),
      // Another agent calls in: the same validation, timeout and error capture as ours.
      execute: async (input) => {
        const outcome = await invokeTool(tool, input);
        if (!outcome.ok) return { content: [{ type: 'text', text: outcome.error.message }], isError: true };
        const content = outcome.result.content;
        return { content: [{ type: 'text', text: typeof content === 'string' ? content : JSON.stringify(content) }] };
      },
    });
    handles.push(() => (handle && typeof handle.unregister === 'function' ? handle.unregister() : modelContext.unregisterTool?.(tool.name)));
  }
  return { exposed: tools.map((tool) => tool.name), unregister: () => handles.forEach((unregister) => unregister()) };
}

/** The page's WebMCP tools as ours (validated from their JSON Schema; approval by MCP's defaults). */
export function importWebMCPTools(modelContext = findModelContext()): Tool[] {
  if (!modelContext?.listTools || !modelContext.executeTool) return [];
  const execute = modelContext.executeTool.bind(modelContext);
  return modelContext.listTools().map((listed) => {
    const inputSchema = typeof listed.inputSchema === 'string' ? JSON.parse(listed.inputSchema) : (listed.inputSchema ?? { type: 'object', properties: {} });
    return fromMCPTool({ name: listed.name, description: listed.description ?? listed.name, inputSchema, annotations: listed.annotations }, async (args) => {
      try {
        return unwrap(await execute(listed.name, args));
      } catch (error) {
        throw new AgentError('tool-failed', `WebMCP tool "${listed.name}" failed: ${messageOf(error)}`);
      }
    });
  });
}

/** MCP results carry text parts; the model reads their text. */
function unwrap(result: unknown): unknown {
  const parts = (result as { content?: { type: string; text?: string }[]; isError?: boolean } | null)?.content;
  if (!Array.isArray(parts)) return result;
  const text = parts.map((part) => part.text ?? '').join('');
  if ((result as { isError?: boolean }).isError) throw new Error(text);
  return text;
}
