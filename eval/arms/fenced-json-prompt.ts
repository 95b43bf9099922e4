/**
 * The system prompt of the AI SDK's in-browser providers for tools
 * (@browser-ai/web-llm 2.1.7, buildJsonToolSystemPrompt in its dist/index.mjs),
 * reproduced in our words where it is code and in theirs where it is the text
 * a model reads: the page's system text, then the tools as pretty-printed
 * JSON, then how to call one (one call at a time, in a ```tool_call fence).
 */
import type { ToolDeclaration } from '../../src/tools/declaration';

/** What the prompt shows of a tool. */
export type PromptTool = Pick<ToolDeclaration, 'name' | 'description' | 'parameters'>;

export function fencedJsonSystemPrompt(system: string, tools: readonly PromptTool[]): string {
  if (tools.length === 0) return system;
  const schemas = tools.map((tool) => ({
    name: tool.name,
    description: tool.description || 'No description provided.',
    parameters: tool.parameters ?? { type: 'object', properties: {} },
  }));
  const body = [
    'You are a helpful AI assistant with access to tools.',
    '',
    '# Available Tools',
    JSON.stringify(schemas, null, 2),
    '',
    '# Tool Calling Instructions',
    'Only request one tool call at a time. Wait for tool results before asking for another tool.',
    '',
    'To call a tool, output JSON in this exact format inside a ```tool_call code fence:',
    '',
    '```tool_call',
    '{"name": "tool_name", "arguments": {"param1": "value1", "param2": "value2"}}',
    '```',
    '',
    'Tool responses will be provided in ```tool_result fences. Each line contains JSON like:',
    '```tool_result',
    '{"id": "call_123", "name": "tool_name", "result": {...}, "error": false}',
    '```',
    'Use the `result` payload (and treat `error` as a boolean flag) when continuing the conversation.',
    '',
    'Important:',
    '- Use exact tool and parameter names from the schema above',
    "- Arguments must be a valid JSON object matching the tool's parameters",
    '- You can include brief reasoning before or after the tool call',
    '- If no tool is needed, respond directly without tool_call fences',
  ].join('\n');
  return system.trim() ? `${system.trim()}\n\n${body}` : body;
}
