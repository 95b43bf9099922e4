/**
 * The structured-clone-safe description of a tool: what the worker, the model
 * and the toolkit graph know of it. The page keeps `execute` and the zod schema.
 */
export type JsonSchema = { [key: string]: unknown };

export interface ToolAnnotations {
  readOnly?: boolean;
  destructive?: boolean;
  idempotent?: boolean;
  openWorld?: boolean;
}

export interface ToolDeclaration {
  name: string;
  description: string;
  whenToUse?: string;
  displayName?: string;
  displayDescription?: string;
  /** JSON Schema of the arguments (an object schema). */
  parameters: JsonSchema;
  returns?: JsonSchema;
  annotations: ToolAnnotations;
  /** 'dynamic': the page decides per call (needsApproval was a function). */
  needsApproval: boolean | 'dynamic';
  returnDirect: boolean;
  longRunning: boolean;
  timeoutMs: number;
  /** Where the tool came from, for UIs and for approval defaults. */
  source: 'page' | 'mcp' | 'webmcp' | 'content-script' | 'builtin';
}

export const DEFAULT_TOOL_TIMEOUT_MS = 30_000;
