/**
 * The only thing the loop knows of a model. A backend implements this and
 * nothing else; the loop never imports an engine.
 */
import type { ToolDeclaration } from '../tools/declaration';
import type { Usage } from '../session/event';

/** OpenAI-style chat messages, the lingua franca of web-llm and most runtimes. */
export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls?: ModelToolCall[] }
  | { role: 'tool'; content: string; toolCallId: string; name: string };

export interface ModelToolCall {
  /** Absent when the model gave none; the loop assigns one. */
  id?: string;
  name: string;
  args: unknown;
}

export interface SamplingOptions {
  temperature?: number;
  topP?: number;
  maxTokens?: number;
  seed?: number;
}

export interface ModelRequest {
  messages: ChatMessage[];
  /** The tools offered for this step; empty means a plain answer is expected. */
  tools: ToolDeclaration[];
  sampling?: SamplingOptions;
}

export type FinishReason = 'stop' | 'tool-calls' | 'length' | 'abort' | 'error';

export type ModelDelta =
  | { type: 'text'; text: string }
  | { type: 'tool-call'; call: ModelToolCall }
  /** The model tried to call a tool but the call could not be read; the loop answers it with this message so the model can correct itself. */
  | { type: 'tool-call-error'; id?: string; name?: string; raw: string; message: string }
  | { type: 'finish'; reason: FinishReason; usage?: Usage };

export interface ModelProgress {
  /** 0..1 */
  progress: number;
  text: string;
  loadedBytes?: number;
  totalBytes?: number;
}

export interface ModelInfo {
  engine: 'webllm' | 'scripted';
  modelId: string;
  /** Shown wherever the model is named, e.g. "scripted (no model)". */
  label: string;
  contextWindow: number;
  nativeToolCalls: boolean;
}

export interface ModelEngine {
  readonly info: ModelInfo;
  load(onProgress?: (progress: ModelProgress) => void, signal?: AbortSignal): Promise<void>;
  generate(request: ModelRequest, signal?: AbortSignal): AsyncIterable<ModelDelta>;
  /** Tokens in a text, with the model's tokenizer when loaded; an estimate otherwise. */
  countTokens(text: string): number;
  isCached?(): Promise<boolean>;
  deleteCache?(): Promise<void>;
  dispose(): Promise<void>;
}

/** A scripted turn: what the model "says" in one step. */
export type ScriptedTurn =
  | { text?: string; toolCalls?: { name: string; args: unknown; id?: string }[]; delayMs?: number }
  | { raw: string; delayMs?: number };

export type ModelOptions =
  | {
      engine: 'webllm';
      modelId: string;
      appConfig?: unknown;
      cacheBackend?: 'cache' | 'indexeddb' | 'opfs';
      contextWindow?: number;
      onProgress?: (progress: ModelProgress) => void;
      /** Resolves relative URLs in appConfig; the page passes its own address (the worker's differs). */
      baseUrl?: string;
      /** Use web-llm's native function calling for the Hermes ids (default true). */
      nativeToolCalls?: boolean;
      /** The constraint for models without native calls (default 'structural-tag'). */
      grammar?: 'structural-tag' | 'json';
    }
  | {
      engine: 'scripted';
      turns: ScriptedTurn[];
      contextWindow?: number;
      onProgress?: (progress: ModelProgress) => void;
    };
