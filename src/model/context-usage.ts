/**
 * How the context window is spent on one step, after Chrome's Prompt API
 * (`measureContextUsage`): the instructions, the tool descriptions, the
 * conversation, and what is left. Counted with the engine's countTokens: the
 * model's own tokenizer once it is loaded, the estimate before.
 */
import type { ToolDeclaration } from '../tools/declaration';
import { messageTokens } from './context-window';
import type { ChatMessage, ModelEngine, ModelInfo } from './engine';
import { exampleText } from './base-model-example';
import { toolFormatNamed } from './formats/registry';

export interface ContextUsage {
  /** The model's context window, in tokens. */
  window: number;
  /** The system prompt without the tool descriptions. */
  instructions: number;
  /** The tool descriptions, as the model's format writes them. */
  tools: number;
  /** The conversation the next step sends (after trimming). */
  history: number;
  /** What is left for the rest of the conversation and the answer; never below 0. */
  free: number;
}

/**
 * The text the model reads for these tools: its family's prompt section, or web-llm's native tool list;
 * for a base model, after the worked example that comes with them.
 */
export function toolsPromptText(
  info: Pick<ModelInfo, 'nativeToolCalls' | 'toolFormat' | 'baseModel'>,
  tools: readonly ToolDeclaration[],
): string {
  if (tools.length === 0) return '';
  if (info.nativeToolCalls)
    return JSON.stringify(
      tools.map((tool) => ({
        type: 'function',
        function: {
          name: tool.name,
          description: tool.whenToUse ? `${tool.description} Use when: ${tool.whenToUse}` : tool.description,
          parameters: tool.parameters,
        },
      })),
    );
  const format = toolFormatNamed(info.toolFormat);
  const section = format.describeTools(tools);
  return info.baseModel ? `${exampleText(format, tools)}\n\n${section}` : section;
}

export function measureContext(
  engine: Pick<ModelEngine, 'info' | 'countTokens'>,
  parts: { system: string; tools: readonly ToolDeclaration[]; messages: readonly ChatMessage[] },
): ContextUsage {
  const count = (text: string) => engine.countTokens(text);
  const window = engine.info.contextWindow;
  const instructions = parts.system ? count(parts.system) : 0;
  const tools = count(toolsPromptText(engine.info, parts.tools));
  const history = parts.messages.reduce((sum, message) => sum + messageTokens(message, count), 0);
  return { window, instructions, tools, history, free: Math.max(0, window - instructions - tools - history) };
}
