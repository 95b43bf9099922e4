/**
 * What the `native` and `fenced-json` arms need of a model: one chat
 * completion, OpenAI-shaped, with or without `tools`, and nothing of ours
 * (no format, no grammar): those arms stand for other stacks.
 *
 * Backends: `scripted` (the mechanics check, no model) and `wllama` (a GGUF
 * through wllama's createChatCompletion, wllama-chat.ts). web-llm's
 * `chat.completions.create` would be a third. Each is created in the worker
 * by the engine module that uses it.
 */
import { estimateTokens } from '../../src/model/token-estimate';
import type { WllamaChatOptions } from './wllama-chat';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** A tool in OpenAI's chat-completions shape, as llama.cpp's server and web-llm take it. */
export interface ChatTool {
  type: 'function';
  function: { name: string; description: string; parameters: unknown };
}

export interface ChatRequest {
  messages: ChatMessage[];
  tools?: ChatTool[];
  /** The most tokens the answer may take (the run's cap, the same for every arm). */
  maxTokens?: number;
  signal?: AbortSignal;
}

export interface ChatReply {
  content: string;
  /** OpenAI's tool_calls: `arguments` is a JSON string, as the model wrote it. */
  toolCalls?: { name: string; arguments: string }[];
  usage?: { promptTokens: number; completionTokens: number };
}

export interface ChatBackend {
  readonly label: string;
  chat(request: ChatRequest): Promise<ChatReply>;
  dispose?(): Promise<void>;
}

export type ChatBackendOptions = { kind: 'scripted'; reply: ChatReply } | WllamaChatOptions;

export async function chatBackend(options: ChatBackendOptions): Promise<ChatBackend> {
  if (options?.kind === 'scripted') return scriptedBackend(options.reply);
  // Imported only when asked for: the mechanics check never loads llama.cpp.
  if (options?.kind === 'wllama') return (await import('./wllama-chat')).wllamaChat(options);
  throw new Error(`No chat backend of kind ${JSON.stringify((options as { kind?: unknown })?.kind)}.`);
}

/** Answers every request with the given reply: the mechanics check, no model. Tokens are estimates. */
function scriptedBackend(reply: ChatReply): ChatBackend {
  return {
    label: 'scripted (no model)',
    chat: async ({ messages, tools }) => ({
      ...structuredClone(reply),
      usage: {
        promptTokens: estimateTokens(messages.map((m) => m.content).join('\n') + (tools ? JSON.stringify(tools) : '')),
        completionTokens: estimateTokens(reply.content + JSON.stringify(reply.toolCalls ?? [])),
      },
    }),
  };
}
