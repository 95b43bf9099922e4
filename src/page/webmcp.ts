/**
 * WebMCP: the browser's own registry of a page's tools for agents.
 *
 * The draft (webmachinelearning/webmcp, 2026-06) and Chromium 156 behind
 * `--enable-features=WebMCP` agree on: `document.modelContext.registerTool(tool,
 * { signal, exposedTo })` returning a promise (rejected for a duplicate or
 * invalid name), unregistering by aborting the signal, and `getTools()` /
 * `executeTool(registeredTool, input)` for the agent side, where executeTool
 * resolves to the JSON text of what `execute` returned. Drafts before 2026-05
 * had `navigator.modelContext`, with `unregisterTool(name)` or a handle with
 * `unregister()`; both are still accepted.
 *
 * The registry keeps only `readOnlyHint` (and `untrustedContentHint`) of a
 * tool's annotations, so exposeToWebMCP also writes MCP's full annotations into
 * the input schema under `x-mcp-annotations` (JSON Schema ignores unknown
 * keywords), and importWebMCPTools reads them back: a destructive tool stays
 * destructive through the browser.
 */
import { AgentError, messageOf } from '../errors';
import type { JsonSchema } from '../tools/declaration';
import type { Tool } from '../tools/define-tool';
import { fromMCPTool, toMCPTool, type MCPToolAnnotations, type MCPToolDefinition } from '../tools/mcp';
import { invokeTool } from '../tools/invoke-tool';

/** The schema keyword that carries MCP's annotations past a registry that keeps only some of them. */
const ANNOTATIONS_KEYWORD = 'x-mcp-annotations';

/** A tool as the page hands it to the registry. */
export interface WebMCPTool {
  name: string;
  title?: string;
  description: string;
  inputSchema?: JsonSchema;
  annotations?: MCPToolAnnotations & { untrustedContentHint?: boolean };
  execute(input: Record<string, unknown>): Promise<unknown>;
}

/** A tool as the registry lists it to an agent (Chromium adds `origin` and `window`). */
export interface RegisteredWebMCPTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: JsonSchema | string;
  annotations?: MCPToolAnnotations & { untrustedContentHint?: boolean };
  origin?: string;
}

/** The part of the WebMCP API we use (the draft's, and the older drafts' unregistering). */
export interface ModelContextLike {
  registerTool(
    tool: WebMCPTool,
    options?: { signal?: AbortSignal; exposedTo?: string[] },
  ): Promise<void> | { unregister?(): void } | void;
  unregisterTool?(name: string): void;
  getTools?(): Promise<RegisteredWebMCPTool[]> | RegisteredWebMCPTool[];
  executeTool?(tool: RegisteredWebMCPTool, input: Record<string, unknown>): Promise<unknown>;
}

export interface ExposeToWebMCPOptions {
  /** Origins of other frames in this page that may see and call the tools (the draft's `exposedTo`). */
  exposedTo?: string[];
}

export interface WebMCPExposure {
  /** The tools the registry took. */
  exposed: string[];
  /** The tools it refused (a name already taken, a name it does not allow), with why. */
  refused: { name: string; error: AgentError }[];
  /** Takes every exposed tool back out of the registry. */
  unregister(): void;
}

/** The browser's registry: `document.modelContext` (current draft) or `navigator.modelContext` (older drafts). */
export function findModelContext(): ModelContextLike | undefined {
  const scope = globalThis as {
    document?: { modelContext?: ModelContextLike };
    navigator?: { modelContext?: ModelContextLike };
  };
  return scope.document?.modelContext ?? scope.navigator?.modelContext;
}

/**
 * Offers `tools` to the registry. Another agent's calls get the same argument
 * validation, timeout and error capture as our own agent's, and the answer in
 * MCP's result shape. Where the browser has no registry, nothing is exposed.
 */
export async function exposeToWebMCP(
  tools: readonly Tool[],
  modelContext: ModelContextLike | undefined = findModelContext(),
  options: ExposeToWebMCPOptions = {},
): Promise<WebMCPExposure> {
  const exposure: WebMCPExposure = { exposed: [], refused: [], unregister: () => undefined };
  if (!modelContext) return exposure;
  const controller = new AbortController();
  const handles: (() => void)[] = [() => controller.abort()];
  for (const tool of tools) {
    const definition = toMCPTool(tool);
    try {
      const handle = await modelContext.registerTool(
        {
          name: definition.name,
          ...(definition.title !== undefined && { title: definition.title }),
          description: definition.description ?? definition.name,
          inputSchema: { ...definition.inputSchema, [ANNOTATIONS_KEYWORD]: definition.annotations },
          annotations: definition.annotations,
          execute: (input) => answer(tool, input),
        },
        { signal: controller.signal, ...(options.exposedTo && { exposedTo: options.exposedTo }) },
      );
      // Older drafts: no signal, but a handle or unregisterTool(name).
      const older = handle as { unregister?(): void } | undefined;
      if (typeof older?.unregister === 'function') handles.push(() => older.unregister!());
      else if (typeof modelContext.unregisterTool === 'function')
        handles.push(() => modelContext.unregisterTool!(tool.name));
      exposure.exposed.push(tool.name);
    } catch (error) {
      exposure.refused.push({
        name: tool.name,
        error: new AgentError(
          'invalid-tool',
          `The browser's WebMCP registry refused the tool "${tool.name}": ${messageOf(error)}. A name can be registered once per page; unregister the earlier one first.`,
          { cause: error },
        ),
      });
    }
  }
  exposure.unregister = () => {
    for (const unregister of handles.splice(0)) {
      try {
        unregister();
      } catch {
        // Already gone (the page unregistered it itself): nothing left to undo.
      }
    }
  };
  return exposure;
}

async function answer(
  tool: Tool,
  input: unknown,
): Promise<{ content: { type: 'text'; text: string }[]; isError?: boolean }> {
  const outcome = await invokeTool(tool, input ?? {});
  if (!outcome.ok) return { content: [{ type: 'text', text: outcome.error.message }], isError: true };
  const content = outcome.result.content;
  return { content: [{ type: 'text', text: typeof content === 'string' ? content : JSON.stringify(content) }] };
}

export interface ImportWebMCPOptions {
  /** Names to leave out, e.g. the tools this page exposed itself. */
  skip?: readonly string[];
}

/**
 * The tools registered in the registry, as ours: validated from their JSON
 * Schema, with MCP's approval defaults (a tool that does not say it is
 * read-only is taken as destructive and asks first). Each call goes through
 * the registry's executeTool, so it runs where the tool was registered.
 */
export async function importWebMCPTools(
  modelContext: ModelContextLike | undefined = findModelContext(),
  options: ImportWebMCPOptions = {},
): Promise<Tool[]> {
  if (!modelContext?.getTools || !modelContext.executeTool) return [];
  const execute = modelContext.executeTool.bind(modelContext);
  const skip = new Set(options.skip ?? []);
  const listed = await modelContext.getTools();
  return listed
    .filter((registered) => !skip.has(registered.name))
    .map((registered) => {
      const definition = toDefinition(registered);
      return refusedWithContext(registered, () =>
        fromMCPTool(definition, async (args) => {
          let result: unknown;
          try {
            result = await execute(registered, args);
          } catch (error) {
            throw new AgentError(
              'tool-failed',
              `The WebMCP tool "${registered.name}" failed in the page that registered it: ${messageOf(error)}`,
              { cause: error },
            );
          }
          return unwrap(result, registered.name);
        }),
      );
    });
}

/**
 * Another page's tool that cannot be made (a schema keyword the validator
 * cannot judge, a name ours does not allow) is refused with fromMCPTool's
 * reason, and how to import the others without it.
 */
function refusedWithContext(registered: RegisteredWebMCPTool, make: () => Tool): Tool {
  try {
    return make();
  } catch (error) {
    if (!(error instanceof AgentError) || error.code !== 'invalid-tool') throw error;
    const from = registered.origin ? ` (registered by ${registered.origin})` : '';
    throw new AgentError(
      'invalid-tool',
      `The WebMCP tool "${registered.name}"${from} cannot be imported. ${error.message} To import the other tools without it: importWebMCPTools(modelContext, { skip: [${JSON.stringify(registered.name)}] }).`,
      { cause: error, details: { ...(error.details ?? {}), tool: registered.name } },
    );
  }
}

/** The registry's listing as an MCP definition, with the annotations our schema keyword carried. */
function toDefinition(registered: RegisteredWebMCPTool): MCPToolDefinition {
  const parsed =
    typeof registered.inputSchema === 'string' && registered.inputSchema !== ''
      ? (JSON.parse(registered.inputSchema) as JsonSchema)
      : registered.inputSchema;
  const { [ANNOTATIONS_KEYWORD]: carried, ...inputSchema } = (
    parsed && typeof parsed === 'object' ? parsed : { type: 'object', properties: {} }
  ) as JsonSchema;
  const annotations = {
    ...registered.annotations,
    ...(carried && typeof carried === 'object' ? (carried as MCPToolAnnotations) : {}),
  };
  delete (annotations as { untrustedContentHint?: boolean }).untrustedContentHint;
  return {
    name: registered.name,
    ...(registered.title ? { title: registered.title } : {}),
    description: registered.description ?? registered.name,
    inputSchema: { type: 'object', properties: {}, ...inputSchema },
    annotations,
  };
}

/** executeTool gives the JSON text of what the tool returned; an MCP result's text parts are what the model reads. */
function unwrap(result: unknown, name: string): unknown {
  let value = result;
  if (typeof result === 'string') {
    try {
      value = JSON.parse(result);
    } catch {
      return result;
    }
  }
  const parts = (value as { content?: { type: string; text?: string }[] } | null)?.content;
  if (!Array.isArray(parts)) return value;
  const text = parts.map((part) => part.text ?? '').join('');
  if ((value as { isError?: boolean }).isError)
    throw new AgentError('tool-failed', `The WebMCP tool "${name}" answered with an error: ${text}`);
  return text;
}
