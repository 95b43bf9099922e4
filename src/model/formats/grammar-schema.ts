/**
 * A tool's arguments as a grammar holds them: the content of the tag a
 * format writes them in (their EBNF, or any arguments at all for a tool whose
 * schema no grammar can hold: its calls are then read and validated after
 * generation), and the JSON Schema of a whole call for web-llm's JSON-schema
 * fallback.
 */
import type { JsonSchema, ToolDeclaration } from '../../tools/declaration';
import { compactSchema } from '../tool-prompt';
import { freeArgumentsGrammar } from './ebnf-arguments';
import { argumentsSupport } from './grammar-support';
import type { StructuralTagFormat } from './structural-tag';
import type { GrammarStep } from './tool-format';

/** The content of the tag that holds one call's arguments, written in `syntax`. */
export function argumentsContent(
  tool: ToolDeclaration,
  step: Pick<GrammarStep, 'relaxed'>,
  syntax: 'json' | 'python' | 'gemma4',
): StructuralTagFormat {
  const grammar = step.relaxed.has(tool.name) ? undefined : argumentsSupport(tool.parameters, syntax).grammar;
  if (grammar !== undefined) return { type: 'grammar', grammar };
  if (syntax === 'json') return { type: 'json_schema', json_schema: { type: 'object' } };
  return { type: 'grammar', grammar: freeArgumentsGrammar(syntax) };
}

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
