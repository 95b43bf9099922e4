/**
 * Our request as the AI SDK's in-browser providers send it (convertToWebLLMMessages
 * and prependSystemPromptToMessages in @browser-ai/web-llm 2.1.7): the system
 * text and the tools in one system message, an assistant turn as its text
 * only, tool results as a user message with one JSON line each in a
 * ```tool_result fence.
 */
import type { ChatMessage as OurMessage } from '../../src/model/engine';
import type { ChatMessage } from './chat-types';
import { fencedJsonSystemPrompt, type PromptTool } from './fenced-json-prompt';

export function fencedJsonMessages(messages: readonly OurMessage[], tools: readonly PromptTool[]): ChatMessage[] {
  const system = messages
    .filter((message) => message.role === 'system')
    .map((message) => message.content)
    .join('\n\n');
  const out: ChatMessage[] = [];
  const prompt = fencedJsonSystemPrompt(system, tools);
  if (prompt.trim()) out.push({ role: 'system', content: prompt });
  let results: string[] = [];
  const flush = () => {
    if (results.length) out.push({ role: 'user', content: `\`\`\`tool_result\n${results.join('\n')}\n\`\`\`` });
    results = [];
  };
  for (const message of messages) {
    if (message.role === 'tool') {
      results.push(
        JSON.stringify({ name: message.name, result: message.content, error: false, id: message.toolCallId }),
      );
      continue;
    }
    flush();
    if (message.role === 'user') out.push({ role: 'user', content: message.content });
    else if (message.role === 'assistant' && message.content) out.push({ role: 'assistant', content: message.content });
  }
  flush();
  return out;
}
