/**
 * The one chat completion every chat backend answers (chat-backend.ts picks
 * one, wllama-chat.ts is one): OpenAI-shaped messages, tools, request and
 * reply. Types only, in a file of their own, so that a backend and the file
 * that chooses among backends both read them without reading each other.
 */

/**
 * A message in OpenAI's shape: an assistant turn may carry the calls it made (`arguments` a JSON string) and a
 * tool message answers one of them by id, so that a conversation's history reaches a template that knows tools
 * in the template's own form.
 */
export type ChatMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls?: ChatToolCall[] }
  | { role: 'tool'; content: string; toolCallId: string };

export interface ChatToolCall {
  id?: string;
  name: string;
  arguments: string;
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
  toolCalls?: ChatToolCall[];
  usage?: { promptTokens: number; completionTokens: number };
}

export interface ChatBackend {
  readonly label: string;
  chat(request: ChatRequest): Promise<ChatReply>;
  dispose?(): Promise<void>;
}
