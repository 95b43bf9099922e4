/**
 * What the `native` and `fenced-json` arms need of a model: one chat
 * completion, OpenAI-shaped, with or without `tools`, and nothing of ours
 * (no format, no grammar): those arms stand for other stacks.
 *
 * The one backend here is `scripted` (the mechanics check). A model plugs in
 * as another kind: wllama's `createChatCompletion({ messages, tools })` once
 * the wllama engine lands (issue 21), web-llm's `chat.completions.create` for
 * web-llm ids. Each is created in the worker by the engine module that uses it.
 */
import { estimateTokens } from '../../src/model/token-estimate';

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
}

export type ChatBackendOptions = { kind: 'scripted'; reply: ChatReply };

export function chatBackend(options: ChatBackendOptions): ChatBackend {
  if (options?.kind === 'scripted') return scriptedBackend(options.reply);
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
