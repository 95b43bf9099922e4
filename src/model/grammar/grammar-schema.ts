/**
 * A tool as prompts and grammars describe it: its entry in a template's tool
 * list, the free arguments of a tool constrained by its name only, and the
 * JSON Schema of a whole call for web-llm's JSON-schema fallback.
 */
import type { JsonSchema, ToolDeclaration } from '../../tools/declaration';
import { compactSchema } from '../tool-prompt';
import { freeArgumentsGrammar } from './ebnf-arguments';
import type { StructuralTagFormat } from './structural-tag';
import type { ArgumentSyntax } from './string-syntax';

/**
 * The content of the tag of a tool constrained by its name only (a schema no
 * grammar holds, or relaxed after web-llm refused the step's grammar): any
 * arguments in `syntax`, read and validated after generation.
 */
export function freeArgumentsContent(syntax: ArgumentSyntax): StructuralTagFormat {
  if (syntax === 'json') return { type: 'json_schema', json_schema: { type: 'object' } };
  if (syntax === 'xml') return { type: 'any_text' };
  return { type: 'grammar', grammar: freeArgumentsGrammar(syntax) };
}

/** The JSON Schema of one call `{"name", "arguments"}` to `tool`, for web-llm's JSON-schema fallback. */
export function callSchema(tool: ToolDeclaration): JsonSchema {
  const schema = compactSchema(tool.parameters) as JsonSchema;
  const args = schema && typeof schema === 'object' && Object.keys(schema).length > 0 ? schema : { type: 'object' };
  return {
    type: 'object',
    properties: { name: { const: tool.name }, arguments: args },
    required: ['name', 'arguments'],
    additionalProperties: false,
  };
}

/** A tool's description with its when-to-use hint, on one line. */
export function describe(tool: ToolDeclaration): string {
  const text = tool.whenToUse ? `${tool.description} Use when: ${tool.whenToUse}` : tool.description;
  return text.replace(/\s+/g, ' ').trim();
}

/** A tool as chat templates list it: its name, description and parameters. */
export function toolEntry(tool: ToolDeclaration): JsonSchema {
  return { name: tool.name, description: describe(tool), parameters: compactSchema(tool.parameters) };
}

/** A tool in OpenAI's function shape, as most chat templates list it. */
export function functionEntry(tool: ToolDeclaration): JsonSchema {
  return { type: 'function', function: toolEntry(tool) };
}
