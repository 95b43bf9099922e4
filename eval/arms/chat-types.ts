/**
 * The one chat completion every chat backend answers (chat-backend.ts picks
 * one, wllama-chat.ts is one): OpenAI-shaped messages, tools, request and
 * reply. Types only, in a file of their own, so that a backend and the file
 * that chooses among backends both read them without reading each other.
 */

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
