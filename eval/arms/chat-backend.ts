/**
 * What the `native` and `fenced-json` arms need of a model: one chat
 * completion, OpenAI-shaped, with or without `tools`, and nothing of ours
 * (no format, no grammar): those arms stand for other stacks.
 *
 * Backends: `scripted` (the mechanics check, no model) and `wllama` (a GGUF
 * through wllama's createChatCompletion, wllama-chat.ts). web-llm's
 * `chat.completions.create` would be a third. Each is created in the worker
 * by the engine module that uses it. The completion's shapes are in
 * chat-types.ts, which the backends read too.
 */
import { estimateTokens } from '../../src/model/token-estimate';
import type { ChatBackend, ChatReply } from './chat-types';
import type { WllamaChatOptions } from './wllama-chat';

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
