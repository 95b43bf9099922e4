/**
 * The JSON-schema fallback (`model.grammar: 'json'`), for engines or tools the
 * structural tag cannot serve: the whole answer is one JSON value, either
 * `{"name": <a tool>, "arguments": {…}}` or `{"answer": "…"}`. The structural
 * tags, one per family, live in model/formats.
 */
import type { JsonSchema, ToolDeclaration } from '../tools/declaration';
import { callSchema } from './grammar/grammar-schema';

/** The schema of the fallback: one call to any declared tool, or a final answer. */
export function callOrAnswerSchema(tools: readonly ToolDeclaration[]): JsonSchema {
  const answer = {
    type: 'object',
    properties: { answer: { type: 'string' } },
    required: ['answer'],
    additionalProperties: false,
  };
  return { anyOf: [...tools.map((tool) => callSchema(tool)), answer] };
}

/** web-llm's `response_format` with the JSON fallback (web-llm takes the schema as a string). */
export function jsonResponseFormat(tools: readonly ToolDeclaration[]) {
  return { type: 'json_object' as const, schema: JSON.stringify(callOrAnswerSchema(tools)) };
}
