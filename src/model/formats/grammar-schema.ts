/**
 * A tool's argument schema as a grammar needs it: an object schema without
 * the keys that only cost compile time, or a free object for a tool whose
 * schema the grammar engine could not compile (its calls are then read and
 * validated after generation).
 */
import type { JsonSchema, ToolDeclaration } from '../../tools/declaration';
import { compactSchema } from '../tool-prompt';
import type { GrammarStep } from './tool-format';

export function argumentsSchema(tool: ToolDeclaration, step: Pick<GrammarStep, 'relaxed'>): JsonSchema {
  if (step.relaxed.has(tool.name)) return { type: 'object' };
  const schema = compactSchema(tool.parameters) as JsonSchema;
  if (!schema || typeof schema !== 'object' || Object.keys(schema).length === 0) return { type: 'object' };
  return schema;
}

/** The JSON Schema of one call `{"name", "arguments"}` to `tool`. */
export function callSchema(
  tool: ToolDeclaration,
  step: Pick<GrammarStep, 'relaxed'>,
  argumentsKey = 'arguments',
): JsonSchema {
  return {
    type: 'object',
    properties: { name: { const: tool.name }, [argumentsKey]: argumentsSchema(tool, step) },
    required: ['name', argumentsKey],
    additionalProperties: false,
  };
}

/** A tool's description with its when-to-use hint, on one line. */
export function describe(tool: ToolDeclaration): string {
  const text = tool.whenToUse ? `${tool.description} Use when: ${tool.whenToUse}` : tool.description;
  return text.replace(/\s+/g, ' ').trim();
}

/** A tool in OpenAI's function shape, as most chat templates list it. */
export function functionEntry(tool: ToolDeclaration): JsonSchema {
  return {
    type: 'function',
    function: { name: tool.name, description: describe(tool), parameters: compactSchema(tool.parameters) },
  };
}
