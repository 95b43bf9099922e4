/**
 * MCP-shaped tools, both ways.
 *
 * fromMCPTool takes a tool as an MCP server lists it (tools/list) and an
 * `execute` that calls it; the arguments are validated from its inputSchema
 * on both sides of the worker boundary. MCP's annotation defaults apply: a
 * tool is not read-only unless it says so, and a tool that is not read-only
 * is destructive and open-world unless it says otherwise. A destructive tool
 * asks for approval, so an MCP tool without annotations asks by default.
 *
 * toMCPTool gives one of ours in the same shape, with every hint written out
 * (our defaults differ from MCP's: a page tool is not destructive unless it
 * says so, and leaving the hint out would make an MCP client assume it is).
 */
import { AgentError } from '../errors';
import type { JsonSchema, ToolAnnotations, ToolDeclaration } from './declaration';
import { buildTool, isTool, type Tool, type ToolContext } from './define-tool';
import { shownName, toolNameProblem } from './tool-name';
import { jsonSchemaProblems } from './json-schema-check';
import { isPlainObject } from './plain-copy';
import { toDeclaration } from './to-declaration';

export interface MCPToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface MCPToolDefinition {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  annotations?: MCPToolAnnotations;
}

export interface FromMCPOptions {
  /** Our name for it, when the server's name does not fit ours (dots, length). */
  name?: string;
  whenToUse?: string;
  timeoutMs?: number;
  /** Overrides the default rule (destructive asks). */
  needsApproval?: boolean | ((args: Record<string, unknown>) => boolean);
  returnDirect?: boolean;
  longRunning?: boolean;
}

export function fromMCPTool(
  definition: MCPToolDefinition,
  execute: (args: Record<string, unknown>, ctx: ToolContext) => unknown,
  options: FromMCPOptions = {},
): Tool<Record<string, unknown>> {
  if (!isPlainObject(definition)) {
    throw new AgentError(
      'invalid-tool',
      'fromMCPTool needs an MCP tool definition: { name, description, inputSchema }.',
    );
  }
  const name = options.name ?? definition.name;
  const label = typeof name === 'string' ? name : String(definition.name);
  const problem = typeof name === 'string' ? toolNameProblem(name) : 'must be a string';
  if (problem) {
    throw invalid(
      label,
      'name',
      `${problem}. Give it another with fromMCPTool(definition, execute, { name: "${suggestName(label)}" }).`,
    );
  }
  const inputSchema = definition.inputSchema;
  if (!isPlainObject(inputSchema) || (inputSchema.type !== undefined && inputSchema.type !== 'object')) {
    throw invalid(label, 'inputSchema', 'must be a JSON Schema object with "type": "object", as MCP requires.');
  }
  const problems = jsonSchemaProblems(inputSchema);
  if (problems.length) throw invalid(label, 'inputSchema', `has problems: ${problems.join('; ')}.`);
  if (definition.outputSchema !== undefined && !isPlainObject(definition.outputSchema)) {
    throw invalid(label, 'outputSchema', 'must be a JSON Schema object when given.');
  }

  const hints = isPlainObject(definition.annotations) ? definition.annotations : {};
  const displayName = [definition.title, hints.title].find((t): t is string => typeof t === 'string');
  const description =
    typeof definition.description === 'string' && definition.description.trim() !== ''
      ? definition.description
      : displayName;

  return buildTool(
    {
      name,
      description: description as string,
      ...(options.whenToUse !== undefined && { whenToUse: options.whenToUse }),
      ...(displayName !== undefined && { displayName }),
      annotations: annotationsFromMCP(hints),
      ...(options.needsApproval !== undefined && { needsApproval: options.needsApproval }),
      ...(options.returnDirect !== undefined && { returnDirect: options.returnDirect }),
      ...(options.longRunning !== undefined && { longRunning: options.longRunning }),
      ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
      execute,
    },
    {
      kind: 'json-schema',
      // Our own copies: the caller's definition object may change later.
      jsonParameters: { type: 'object', ...structuredClone(inputSchema) },
      ...(definition.outputSchema !== undefined && { jsonReturns: structuredClone(definition.outputSchema) }),
    },
    'mcp',
    'fromMCPTool',
  ) as Tool<Record<string, unknown>>;
}

/** MCP's defaults made explicit: see the file comment. */
export function annotationsFromMCP(hints: MCPToolAnnotations): ToolAnnotations {
  const readOnly = hints.readOnlyHint === true;
  return {
    readOnly,
    destructive: readOnly ? false : hints.destructiveHint !== false,
    idempotent: hints.idempotentHint === true,
    openWorld: hints.openWorldHint !== false,
  };
}

export function toMCPTool(tool: Tool | ToolDeclaration): MCPToolDefinition {
  const declaration = isTool(tool) ? toDeclaration(tool) : tool;
  const a = declaration.annotations;
  const annotations: MCPToolAnnotations = {
    ...(declaration.displayName !== undefined && { title: declaration.displayName }),
    readOnlyHint: a.readOnly === true,
    destructiveHint: a.destructive === true,
    idempotentHint: a.idempotent === true,
    openWorldHint: a.openWorld === true,
  };
  const outputSchema = declaration.returns;
  return {
    name: declaration.name,
    ...(declaration.displayName !== undefined && { title: declaration.displayName }),
    description: declaration.whenToUse
      ? `${declaration.description}\n\nWhen to use: ${declaration.whenToUse}`
      : declaration.description,
    inputSchema: structuredClone(declaration.parameters),
    // MCP allows only object output schemas; other return shapes stay unstated.
    ...(outputSchema !== undefined &&
      outputSchema.type === 'object' && { outputSchema: structuredClone(outputSchema) }),
    annotations,
  };
}

function suggestName(name: string): string {
  const cleaned = name
    .replace(/[^a-zA-Z0-9_-]+/g, '_')
    .replace(/^[^a-zA-Z_]+/, '')
    .slice(0, 64);
  if (!cleaned) return 'mcp_tool';
  return toolNameProblem(cleaned) ? `mcp_${cleaned}`.slice(0, 64) : cleaned;
}

function invalid(tool: string, field: string, problem: string): AgentError {
  return new AgentError('invalid-tool', `MCP tool ${shownName(tool)}: "${field}" ${problem}`, {
    details: { tool, field },
  });
}
