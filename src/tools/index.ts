/** The tools layer: defining tools, describing them to the worker, validating and running calls. */
export { z } from './zod';
export { defineTool, assertUniqueToolNames, isTool, TOOL_NAME_PATTERN } from './define-tool';
export type { Tool, ToolSpec, ToolContext, ToolSchema } from './define-tool';
export { DEFAULT_TOOL_TIMEOUT_MS } from './declaration';
export type { ToolDeclaration, ToolAnnotations, JsonSchema } from './declaration';
export { toDeclaration } from './to-declaration';
export { validateJsonSchema, deepEqual } from './json-schema-validate';
export type { JsonSchemaValidation } from './json-schema-validate';
export { jsonSchemaProblems } from './json-schema-check';
export { formatIssues, formatPath, issuesFromZod } from './format-issues';
export type { ValidationIssue, IssuePath } from './format-issues';
export { validateWithZod, validateWithJsonSchema, validateToolArgs } from './validate-args';
export type { ArgsValidation } from './validate-args';
export { isToolResult, isToolStream, collectToolOutput } from './tool-result';
export type { ToolResult, ToolStream, CollectOptions } from './tool-result';
export { findUncloneable, isCloneable } from './find-uncloneable';
export type { Uncloneable } from './find-uncloneable';
export { invokeTool } from './invoke-tool';
export type { ToolOutcome, InvokeOptions } from './invoke-tool';
export {
  buildReferences,
  formatReferences,
  dedupeReferences,
  stripBase64Images,
  hashText,
  MAX_REFERENCE_CHARS,
} from './references';
export type { SearchResult, ReferenceChunk, ReferenceDocument, References, BuildReferencesOptions } from './references';
export { fromMCPTool, toMCPTool, annotationsFromMCP } from './mcp';
export type { MCPToolDefinition, MCPToolAnnotations, FromMCPOptions } from './mcp';
export { copyPlainData, FORBIDDEN_KEYS } from './plain-copy';
