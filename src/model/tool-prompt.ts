/**
 * The tool section of the generic format (formats/generic-json.ts), for
 * models trained on no tool format: which tools exist and how to call them.
 * Compact on purpose: small models have small windows, and every token here
 * is paid on every step. The other families describe tools in their own
 * template's words (model/formats).
 */
import type { ToolDeclaration } from '../tools/declaration';

export function describeTools(tools: readonly ToolDeclaration[]): string {
  if (tools.length === 0) return '';
  const lines = tools.map((tool) => {
    const parts = [`- ${tool.name}: ${oneLine(tool.description)}`];
    if (tool.whenToUse) parts.push(`  Use when: ${oneLine(tool.whenToUse)}`);
    parts.push(`  Arguments (JSON Schema): ${JSON.stringify(compactSchema(tool.parameters))}`);
    return parts.join('\n');
  });
  return [
    '# Tools',
    'You may call these tools:',
    ...lines,
    '',
    'To call a tool, write exactly:',
    '<tool_call>{"name": "<tool name>", "arguments": {<arguments as JSON>}}</tool_call>',
    'You may write several calls, one tag each. After the calls, stop and wait: the results come back as <tool_response> messages.',
    'Call only the tools listed above. If no tool is needed, answer in plain text without any tag.',
  ].join('\n');
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Drops schema keys that cost tokens and tell the model nothing ($schema, titles, empty additionalProperties noise). */
export function compactSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(compactSchema);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$schema' || key === 'title' || key === '$id') continue;
    if (key === 'additionalProperties' && value === false) continue;
    out[key] = compactSchema(value);
  }
  return out;
}
