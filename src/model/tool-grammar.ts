/**
 * The constraint under which a model without native function calling decodes,
 * so that even a small model can only write a well-formed call to a declared
 * tool, or plain text. Two forms, both understood by web-llm 0.2.86 (and by
 * @mlc-ai/web-xgrammar, the same grammar engine):
 *
 * - `structural_tag` (preferred): free text until the model writes
 *   `<tool_call>`; from there the output must be a JSON object naming one
 *   declared tool with arguments under that tool's schema, then `</tool_call>`;
 *   then free text again (so several calls are possible).
 * - `json_object` with a schema (fallback, for engines or tools whose schemas
 *   the structural tag cannot hold): the whole answer is one JSON value, either
 *   `{"name": <a tool>, "arguments": {…}}` or `{"answer": "…"}`.
 *
 * These are plain objects, not web-llm types, so this file stays free of web-llm.
 */
import type { JsonSchema, ToolDeclaration } from '../tools/declaration';
import { compactSchema } from './tool-prompt';

export const TOOL_CALL_BEGIN = '<tool_call>';
export const TOOL_CALL_END = '</tool_call>';

/** The JSON Schema of a call to one tool: its name as a constant, and its arguments. */
export function callSchema(tool: ToolDeclaration): JsonSchema {
  return {
    type: 'object',
    properties: { name: { const: tool.name }, arguments: argumentsSchema(tool.parameters) },
    required: ['name', 'arguments'],
    additionalProperties: false,
  };
}

/** The structural tag (web-xgrammar's `StructuralTag` shape) for a set of tools. */
export function toolCallStructuralTag(tools: readonly ToolDeclaration[]) {
  return {
    type: 'structural_tag' as const,
    format: {
      type: 'triggered_tags' as const,
      triggers: [TOOL_CALL_BEGIN],
      tags: tools.map((tool) => ({
        type: 'tag' as const,
        begin: TOOL_CALL_BEGIN,
        content: { type: 'json_schema' as const, json_schema: callSchema(tool) },
        end: TOOL_CALL_END,
      })),
    },
  };
}

/** The schema of the fallback: one call to any declared tool, or a final answer. */
export function callOrAnswerSchema(tools: readonly ToolDeclaration[]): JsonSchema {
  const answer = {
    type: 'object',
    properties: { answer: { type: 'string' } },
    required: ['answer'],
    additionalProperties: false,
  };
  return { anyOf: [...tools.map(callSchema), answer] };
}

/** web-llm's `response_format` with the structural tag. */
export function structuralTagResponseFormat(tools: readonly ToolDeclaration[]) {
  return { type: 'structural_tag' as const, structural_tag: toolCallStructuralTag(tools) };
}

/** web-llm's `response_format` with the JSON fallback (web-llm takes the schema as a string). */
export function jsonResponseFormat(tools: readonly ToolDeclaration[]) {
  return { type: 'json_object' as const, schema: JSON.stringify(callOrAnswerSchema(tools)) };
}

/** web-llm's `response_format` for a step: the structural tag, or the JSON fallback. */
export function toolResponseFormat(
  tools: readonly ToolDeclaration[],
  form: 'structural-tag' | 'json' = 'structural-tag',
) {
  return form === 'json' ? jsonResponseFormat(tools) : structuralTagResponseFormat(tools);
}

/** A tool's parameter schema as the grammar needs it: an object, without keys that only cost compile time. */
function argumentsSchema(parameters: JsonSchema): JsonSchema {
  const schema = compactSchema(parameters) as JsonSchema;
  if (!schema || typeof schema !== 'object' || Object.keys(schema).length === 0) return { type: 'object' };
  return schema;
}
