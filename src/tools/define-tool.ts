/**
 * defineTool: a page's tool as data plus `execute`. The spec is checked here,
 * when the tool is defined, so that a mistake surfaces in the page's own code
 * with the tool and the field named, not later as a model's confusing failure.
 *
 * A Tool's arguments are described either by a zod object (tools the page
 * writes) or by a JSON Schema (tools that arrive as MCP definitions): the
 * `schema` field says which, and both variants carry the JSON Schema the
 * worker and the model see, computed once here.
 */
import { AgentError } from '../errors';
import { DEFAULT_TOOL_TIMEOUT_MS, type JsonSchema, type ToolAnnotations, type ToolDeclaration } from './declaration';
import { shownName, toolNameProblem } from './tool-name';
import { z } from './zod';

export interface ToolContext {
  /** Aborted when the run is aborted or the tool's timeout passes. */
  signal: AbortSignal;
  sessionId: string;
  invocationId: string;
  callId: string;
  agentName: string;
  /** The session state as it was when the call started. */
  state: Readonly<Record<string, unknown>>;
  /** Records state changes; they are applied with the call's response event. */
  setState(delta: Record<string, unknown>): void;
}

type ZodObjectSchema = z.core.$ZodObject;

export interface ToolSpec<P extends ZodObjectSchema = ZodObjectSchema, R = unknown> {
  /** /^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$/: what the model writes to call it. */
  name: string;
  /** What the tool does, for the model. */
  description: string;
  /** When the model should pick it, appended to the description in prompts. */
  whenToUse?: string;
  /** For people (approval dialogs, event lists). */
  displayName?: string;
  displayDescription?: string;
  parameters: P;
  /** The shape of what execute returns, for the model and for MCP export. */
  returns?: z.core.$ZodType;
  annotations?: ToolAnnotations;
  /** true, false, or a rule on the arguments. Absent: destructive tools ask. */
  needsApproval?: boolean | ((args: z.output<P>) => boolean);
  /** The tool's output is the run's final answer. */
  returnDirect?: boolean;
  /** The call's answer may arrive later (agent.resolveTool). */
  longRunning?: boolean;
  /** Default DEFAULT_TOOL_TIMEOUT_MS (30 s). */
  timeoutMs?: number;
  /**
   * May return a plain value, a ToolResult, a promise of either, or an async
   * iterable whose chunks stream (see tool-result.ts for the final value).
   */
  execute(args: z.output<P>, ctx: ToolContext): R;
}

export type ToolSchema =
  | {
      kind: 'zod';
      parameters: ZodObjectSchema;
      returns?: z.core.$ZodType;
      jsonParameters: JsonSchema;
      jsonReturns?: JsonSchema;
    }
  | {
      kind: 'json-schema';
      jsonParameters: JsonSchema;
      jsonReturns?: JsonSchema;
    };

export interface Tool<Args = any> {
  readonly name: string;
  readonly description: string;
  readonly whenToUse?: string;
  readonly displayName?: string;
  readonly displayDescription?: string;
  readonly schema: ToolSchema;
  readonly annotations: ToolAnnotations;
  /** As given; undefined means the default rule (destructive tools ask). */
  readonly needsApproval?: boolean | ((args: Args) => boolean);
  readonly returnDirect: boolean;
  readonly longRunning: boolean;
  readonly timeoutMs: number;
  readonly source: ToolDeclaration['source'];
  execute(args: Args, ctx: ToolContext): unknown;
}

export { TOOL_NAME_PATTERN } from './tool-name';

/** The longest timer a browser keeps; longer ones fire at once. */
const MAX_TIMEOUT_MS = 2_147_483_647;

export function defineTool<P extends ZodObjectSchema, R>(spec: ToolSpec<P, R>): Tool<z.output<P>> {
  if (spec === null || typeof spec !== 'object') {
    throw new AgentError(
      'invalid-tool',
      'defineTool needs an object: { name, description, parameters: z.object({...}), execute }.',
    );
  }
  const name = checkName(spec.name, 'defineTool');
  if (!isZodObject(spec.parameters)) {
    throw invalid(
      name,
      'parameters',
      `must be a zod object schema, e.g. parameters: z.object({ text: z.string() }) (use the z exported by inpage-agent, zod 4); got ${describe(spec.parameters)}.`,
    );
  }
  if (spec.returns !== undefined && !isZodSchema(spec.returns)) {
    throw invalid(name, 'returns', `must be a zod schema when given; got ${describe(spec.returns)}.`);
  }
  const schema: ToolSchema = {
    kind: 'zod',
    parameters: spec.parameters,
    returns: spec.returns,
    jsonParameters: zodToJsonSchema(name, 'parameters', spec.parameters),
    jsonReturns: spec.returns === undefined ? undefined : zodToJsonSchema(name, 'returns', spec.returns),
  };
  return buildTool({ ...spec, name }, schema, 'page') as Tool<z.output<P>>;
}

/** What buildTool needs besides the schema: the spec without parameters/returns. */
export interface ToolBasics {
  name: string;
  description: string;
  whenToUse?: string;
  displayName?: string;
  displayDescription?: string;
  annotations?: ToolAnnotations;
  needsApproval?: boolean | ((args: any) => boolean);
  returnDirect?: boolean;
  longRunning?: boolean;
  timeoutMs?: number;
  execute(args: any, ctx: ToolContext): unknown;
}

/** Checks every field but the schema and freezes the tool. Shared with fromMCPTool, asTool and the extension bridge. */
export function buildTool(
  spec: ToolBasics,
  schema: ToolSchema,
  source: ToolDeclaration['source'],
  where = 'defineTool',
): Tool {
  const name = checkName(spec.name, where);
  if (typeof spec.description !== 'string' || spec.description.trim() === '') {
    throw invalid(name, 'description', 'must be a non-empty string that tells the model what the tool does.');
  }
  for (const field of ['whenToUse', 'displayName', 'displayDescription'] as const) {
    if (spec[field] !== undefined && typeof spec[field] !== 'string') {
      throw invalid(name, field, `must be a string when given; got ${describe(spec[field])}.`);
    }
  }
  if (typeof spec.execute !== 'function') {
    throw invalid(name, 'execute', `must be a function (args, ctx) => result; got ${describe(spec.execute)}.`);
  }
  if (
    spec.needsApproval !== undefined &&
    typeof spec.needsApproval !== 'boolean' &&
    typeof spec.needsApproval !== 'function'
  ) {
    throw invalid(
      name,
      'needsApproval',
      `must be true, false or a function (args) => boolean; got ${describe(spec.needsApproval)}.`,
    );
  }
  for (const field of ['returnDirect', 'longRunning'] as const) {
    if (spec[field] !== undefined && typeof spec[field] !== 'boolean') {
      throw invalid(name, field, `must be true or false; got ${describe(spec[field])}.`);
    }
  }
  const timeoutMs = spec.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
  if (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs <= 0 || timeoutMs > MAX_TIMEOUT_MS) {
    throw invalid(
      name,
      'timeoutMs',
      `must be a number of milliseconds above 0 and at most ${MAX_TIMEOUT_MS} (about 24 days); got ${describe(spec.timeoutMs)}. Leave it out for the default of ${DEFAULT_TOOL_TIMEOUT_MS} ms.`,
    );
  }
  const annotations = checkAnnotations(name, spec.annotations);

  const tool: Tool = {
    name,
    description: spec.description,
    ...(spec.whenToUse !== undefined && { whenToUse: spec.whenToUse }),
    ...(spec.displayName !== undefined && { displayName: spec.displayName }),
    ...(spec.displayDescription !== undefined && { displayDescription: spec.displayDescription }),
    schema: Object.freeze(schema),
    annotations: Object.freeze(annotations),
    ...(spec.needsApproval !== undefined && { needsApproval: spec.needsApproval }),
    returnDirect: spec.returnDirect ?? false,
    longRunning: spec.longRunning ?? false,
    timeoutMs,
    source,
    execute: spec.execute,
  };
  return Object.freeze(tool);
}

/** Where a tool comes from; 'builtin' is the runtime's own agent tools, which no page may claim. */
const PAGE_SOURCES: readonly ToolDeclaration['source'][] = ['page', 'mcp', 'webmcp', 'content-script'];

/**
 * A tool as an agent takes it (createAgent, registerTool, the extension
 * bridge): checked again and rebuilt. A copy (`{ ...tool, name }`) or a
 * hand-made object never passed defineTool's checks, and would otherwise
 * bring any name, or a source of 'builtin', which asks no one.
 */
export function asTool(value: unknown, where: string): Tool {
  if (value === null || typeof value !== 'object') {
    throw new AgentError(
      'invalid-tool',
      `${where}: a tool must be made with defineTool() or fromMCPTool(); got ${describe(value)}.`,
    );
  }
  const tool = value as Partial<Tool>;
  const name = checkName(tool.name, where);
  const schema = tool.schema as Partial<ToolSchema> | undefined;
  const whole =
    schema !== null &&
    typeof schema === 'object' &&
    isPlainJsonSchema(schema.jsonParameters) &&
    (schema.kind === 'json-schema' ||
      (schema.kind === 'zod' && isZodObject((schema as { parameters?: unknown }).parameters)));
  if (!whole)
    throw invalid(
      name,
      'schema',
      `is missing or is not one defineTool() or fromMCPTool() made. Make the tool with one of them; to change a field, define it again (a hand-made object has no schema).`,
    );
  const source = tool.source ?? 'page';
  if (!PAGE_SOURCES.includes(source))
    throw invalid(name, 'source', `must be one of ${PAGE_SOURCES.join(', ')}; got ${describe(source)}.`);
  if (tool.annotations !== undefined && (tool.annotations === null || typeof tool.annotations !== 'object'))
    throw invalid(name, 'annotations', `must be an object; got ${describe(tool.annotations)}.`);
  return buildTool(tool as ToolBasics, schema as ToolSchema, source, where);
}

function isPlainJsonSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Two tools with one name in one agent would make the model's calls ambiguous. */
export function assertUniqueToolNames(tools: readonly Pick<Tool, 'name'>[]): void {
  const seen = new Set<string>();
  for (const tool of tools) {
    if (seen.has(tool.name)) {
      throw new AgentError(
        'invalid-tool',
        `Two tools are named "${tool.name}"; each tool in one agent needs its own name. Rename one of them (or unregister the old one first).`,
        { details: { tool: tool.name, field: 'name' } },
      );
    }
    seen.add(tool.name);
  }
}

export function isTool(value: unknown): value is Tool {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Tool).name === 'string' &&
    typeof (value as Tool).execute === 'function' &&
    typeof (value as Tool).schema === 'object'
  );
}

function checkName(name: unknown, where: string): string {
  if (typeof name !== 'string') {
    throw new AgentError(
      'invalid-tool',
      `${where}: "name" must be a string such as "add_todo"; got ${describe(name)}.`,
      {
        details: { field: 'name' },
      },
    );
  }
  const problem = toolNameProblem(name);
  if (problem)
    throw new AgentError('invalid-tool', `${where}: the tool name ${shownName(name)} ${problem}.`, {
      details: { tool: name, field: 'name' },
    });
  return name;
}

function checkAnnotations(name: string, annotations: unknown): ToolAnnotations {
  if (annotations === undefined) return {};
  if (annotations === null || typeof annotations !== 'object' || Array.isArray(annotations)) {
    throw invalid(
      name,
      'annotations',
      `must be an object { readOnly?, destructive?, idempotent?, openWorld? }; got ${describe(annotations)}.`,
    );
  }
  const out: ToolAnnotations = {};
  for (const key of ['readOnly', 'destructive', 'idempotent', 'openWorld'] as const) {
    const flag = (annotations as Record<string, unknown>)[key];
    if (flag === undefined) continue;
    if (typeof flag !== 'boolean')
      throw invalid(name, `annotations.${key}`, `must be true or false; got ${describe(flag)}.`);
    out[key] = flag;
  }
  return out;
}

function zodToJsonSchema(name: string, field: 'parameters' | 'returns', schema: z.core.$ZodType): JsonSchema {
  let json: JsonSchema;
  try {
    // 'input': the model writes what the schema accepts (a .default() field is optional).
    json = z.toJSONSchema(schema, {
      io: field === 'parameters' ? 'input' : 'output',
      unrepresentable: 'throw',
    }) as JsonSchema;
  } catch (error) {
    throw invalid(
      name,
      field,
      `cannot be described to the model as JSON Schema (${error instanceof Error ? error.message : String(error)}). Use types that JSON can carry: for a date use z.iso.datetime() instead of z.date(), numbers instead of bigint, and no functions or custom classes.`,
    );
  }
  // "$schema" tells the model nothing and costs prompt tokens.
  const { $schema: _ignored, ...rest } = json;
  if (field === 'parameters' && rest.type !== 'object') {
    throw invalid(
      name,
      field,
      'must describe an object (its JSON Schema has type "object"); wrap the fields in z.object({...}).',
    );
  }
  return rest;
}

function isZodSchema(value: unknown): value is z.core.$ZodType {
  return (
    typeof value === 'object' &&
    value !== null &&
    '_zod' in value &&
    typeof (value as { _zod: unknown })._zod === 'object'
  );
}

function isZodObject(value: unknown): value is ZodObjectSchema {
  return isZodSchema(value) && (value as { _zod: { def?: { type?: unknown } } })._zod.def?.type === 'object';
}

function invalid(tool: string, field: string, problem: string): AgentError {
  return new AgentError('invalid-tool', `Tool "${tool}": "${field}" ${problem}`, { details: { tool, field } });
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (isZodSchema(value))
    return `a zod ${String((value as { _zod: { def?: { type?: unknown } } })._zod.def?.type)} schema`;
  if (typeof value === 'object' && 'safeParse' in value) return 'a zod 3 schema (inpage-agent needs zod 4)';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return typeof value;
}
