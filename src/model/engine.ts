/**
 * The only thing the loop knows of a model. A backend implements this and
 * nothing else; the loop never imports an engine.
 */
import type { ToolDeclaration } from '../tools/declaration';
import type { Usage } from './usage';
import type { ToolFormatName } from './formats/tool-format-name';

export type { ToolFormatName };

/** OpenAI-style chat messages, the lingua franca of web-llm and most runtimes. */
export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  /**
   * `raw`: the model's own output for this turn exactly as it generated it.
   * Engines replay it verbatim (so web-llm's KV cache stays valid) and fall
   * back to `content` + `toolCalls`, written in the model's format, without it.
   */
  | { role: 'assistant'; content: string; toolCalls?: ModelToolCall[]; raw?: string }
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

/** Whether the model may, must or must not call a tool, or must call one named tool. */
export type ToolChoice = 'auto' | 'required' | 'none' | { name: string };

/** What a model step produced, as callbacks see and replace it. */
export interface ModelResponse {
  text: string;
  toolCalls: ModelToolCall[];
}

export interface ModelRequest {
  messages: ChatMessage[];
  /**
   * The tools described to the model; empty means a plain answer is expected.
   * Kept the same for every step of a run, so that the prompt stays the same.
   */
  tools: ToolDeclaration[];
  /**
   * The names the model may call in this step (a subset of `tools`), enforced
   * by the grammar without changing the prompt. Absent: every tool in `tools`.
   */
  allowedTools?: string[];
  /**
   * For this step, the arguments a tool's call may take, narrower than its schema (one of a few values), enforced
   * by the grammar without changing the prompt. An engine without a grammar ignores it; the tool's own schema
   * still validates every call.
   */
  narrowedArguments?: Record<string, ToolDeclaration['parameters']>;
  /** Absent: 'auto'. */
  toolChoice?: ToolChoice;
  sampling?: SamplingOptions;
}

export type FinishReason = 'stop' | 'tool-calls' | 'length' | 'abort' | 'error';

export type ModelDelta =
  | { type: 'text'; text: string }
  /** Reasoning the model wrote before answering (e.g. Qwen3's `<think>…</think>`): shown and stored, never run. */
  | { type: 'reasoning'; text: string }
  | { type: 'tool-call'; call: ModelToolCall }
  /**
   * The model began writing a call to this tool: its name is written, its arguments are not yet. A hint for
   * display only; the call itself (or a tool-call-error) follows as its own delta when the step ends.
   */
  | { type: 'tool-call-start'; name: string }
  /**
   * How far the model has read this step's prompt: `read` of the `of` tokens it had to read (those its cache
   * held are not counted). For a display while a CPU model reads for a long time; engines that cannot tell
   * (web-llm) never send it.
   */
  | ({ type: 'prompt-read' } & PromptRead)
  /** The model tried to call a tool but the call could not be read; the loop answers it with this message so the model can correct itself. */
  | { type: 'tool-call-error'; id?: string; name?: string; raw: string; message: string }
  /** Something the person or developer should know about this step, e.g. a grammar that fell back. */
  | { type: 'notice'; code: string; message: string }
  /** `raw`: everything the model generated, markup included, as it generated it. */
  | { type: 'finish'; reason: FinishReason; usage?: Usage; raw?: string };

export interface ModelProgress {
  /** 0..1 */
  progress: number;
  text: string;
  loadedBytes?: number;
  totalBytes?: number;
}

export interface ModelInfo {
  engine: 'webllm' | 'wllama' | 'scripted' | 'module';
  modelId: string;
  /** Shown wherever the model is named, e.g. "scripted (no model)". */
  label: string;
  contextWindow: number;
  nativeToolCalls: boolean;
  /** The tool-call format the model's prompt, grammar and history are written in (model/formats). */
  toolFormat: ToolFormatName;
  /** CPU threads the model decodes on (wllama). */
  threads?: number;
  /** Said when the model runs with less than was asked, and why (e.g. one thread: the page is not cross-origin isolated). */
  notice?: string;
  /** A GGUF without a chat template (a base model): a step with tools opens with a worked example (base-model-example.ts). */
  baseModel?: boolean;
  /**
   * The rounds of tool calls the model handles well in one run, after which it answers in words: the
   * default of createAgent({ maxToolRounds }). 1 for a model under two billion parameters (Qwen2.5-Coder
   * 0.5B and 1.5B, after a first round of results, called wrong tools instead of answering); absent: no limit.
   */
  toolRounds?: number;
}

/** What a page may do with its model's files (agent.model). */
export interface ModelHandle {
  /** Whether the model's files are in the browser's cache already (no download needed). */
  isCached(): Promise<boolean>;
  /** Removes the model's files from the browser's cache. */
  deleteCache(): Promise<void>;
}

/**
 * What an engine is told of a session's past: its events (AgentEvent), of which
 * an engine reads only what the model wrote (`raw`), so that model/ does not
 * depend on the session's vocabulary.
 */
export interface PastEvent {
  raw?: string;
}

/** How far a model has read a prompt: `read` of the `of` tokens it had to read (its cache's are not counted). */
export interface PromptRead {
  read: number;
  of: number;
}

/** What reading a prompt's constant part ahead did (ModelEngine.readAhead, agent.warmup). */
export interface WarmupResult {
  /**
   * 'read': the prefix is in the engine's cache now, and a request that starts with it prefills only the rest.
   * 'unsupported': this engine keeps no prompt read ahead (web-llm, the scripted engine, an engine module
   * without readAhead): nothing was read. 'skipped': a run was under way; its own steps keep the cache.
   */
  status: 'read' | 'unsupported' | 'skipped';
  /** Tokens of the prefix: the system text, the tools, a worked example, the conversation so far. 0 unless read. */
  promptTokens: number;
  /** Of those, the tokens the model read now (prefilled). */
  prefilledTokens: number;
  /** Of those, the tokens it found in its cache already (reused). */
  cachedTokens: number;
  /** How long it took, the wait for the model's turn included (ms). */
  ms: number;
  /** Why nothing was read (status 'unsupported' or 'skipped'). */
  reason?: string;
}

/**
 * A few-token answer held to a list (ModelEngine.choose): the decision layer's "which tool, or none" before a
 * step writes anything. The request's messages end with the question, as a user message.
 */
export interface ChoiceRequest extends ModelRequest {
  /** What the answer may be, exactly; at least two. */
  options: readonly string[];
}

/** How likely the model is to open a step with a call (ModelEngine.callChance), and what reading its prompt cost. */
export interface CallChance {
  /**
   * The probability that the model's first token opens a call (one of its format's call openers), among the
   * first tokens the step's grammar allows: a call's opening, or words. 0..1.
   */
  chance: number;
  usage?: Usage;
  ms: number;
}

/** What the model chose, and what choosing cost. */
export interface Choice {
  option: string;
  usage?: Usage;
  ms: number;
}

export interface ModelEngine {
  readonly info: ModelInfo;
  load(onProgress?: (progress: ModelProgress) => void, signal?: AbortSignal): Promise<void>;
  generate(request: ModelRequest, signal?: AbortSignal): AsyncIterable<ModelDelta>;
  /**
   * Reads the prompt of `request` up to where the text of its last message (a user message) begins
   * into the engine's cache, so that a step whose prompt starts the same way prefills only the rest.
   * Takes the engine's turn as a step does. Rejects with an 'aborted' AgentError on `signal`. `onRead` hears how
   * far it has read, from `read: 0` to `read === of` (`of` is an estimate until the last piece is read).
   */
  readAhead?(
    request: ModelRequest,
    signal?: AbortSignal,
    onRead?: (progress: PromptRead) => void,
  ): Promise<WarmupResult>;
  /**
   * Answers the request's last message with exactly one of its options, the most likely under the model
   * (greedy, held by a grammar), in the prompt a generate() of the same messages would read, so that the
   * cache the answer leaves is the step's. Takes the engine's turn as a step does. Absent: the engine cannot
   * hold an answer to a list, and the loop decides nothing ahead of a step (decisions are skipped).
   * Rejects with an 'aborted' AgentError on `signal`.
   */
  choose?(request: ChoiceRequest, signal?: AbortSignal, onRead?: (progress: PromptRead) => void): Promise<Choice>;
  /**
   * How likely the model is to answer `request` with a call rather than words, read from its first token's
   * probabilities (nothing is written): the decision layer's "call or answer" before a step. Reads the
   * prompt a generate() of the same request would (that step then reuses it from the cache). Absent: the
   * engine cannot see token probabilities, and the loop lets the model decide as it writes.
   */
  callChance?(
    request: ModelRequest,
    signal?: AbortSignal,
    onRead?: (progress: PromptRead) => void,
  ): Promise<CallChance>;
  /**
   * Goes on with the model's turn `turn` (its own output for `request`, as generate() wrote it) with another
   * call, held to the request's tool choice ('required' when it has none): the decision layer's "as many calls
   * as asked", in the same turn, so the calls run together and the cache holds everything before. The finish's
   * `raw` is the whole turn, `turn` included; the other deltas are the new part's. Absent: the engine cannot
   * continue a turn of its model (web-llm's chat API starts a new one), and a run makes one round at a time.
   */
  continueTurn?(request: ModelRequest, turn: string, signal?: AbortSignal): AsyncIterable<ModelDelta>;
  /** Tokens in a text, with the model's tokenizer when loaded; an estimate otherwise. */
  countTokens(text: string): number;
  /**
   * Whether countTokens counts with the model's own tokenizer now (absent: it estimates). An estimate is
   * scaled by what the steps showed it falls short by before agent.contextUsage() reports it; a tokenizer's
   * count is reported as it is.
   */
  countsWithTokenizer?(): boolean;
  /**
   * Told the session's recent events when an agent opens it, for an engine
   * that carries state across steps (the scripted engine continues its script
   * after a restart from the turns it already played).
   */
  resume?(history: readonly PastEvent[]): void;
  isCached?(): Promise<boolean>;
  deleteCache?(): Promise<void>;
  dispose(): Promise<void>;
}
