/**
 * The loop's vocabulary, in types only: what an invocation needs from the
 * outside world, and the shapes its steps hand each other. Every file of
 * the flow imports its words from here, and this file imports none of
 * theirs. The worker provides the outside world; the loop never knows about
 * comlink or pages.
 */
import type { AgentErrorCode, AgentErrorData } from '../errors';
import type { AgentSpec, CallInfo, PreparedCall, ToolCallRequest } from '../contract/protocol';
import type { Limits } from '../contract/limits';
import type { Decisions } from '../contract/decisions';
import type { ChatMessage, FinishReason, ModelEngine, ModelRequest, ModelResponse, ToolChoice } from '../model/engine';
import type {
  AgentEvent,
  EndReason,
  FunctionCall,
  FunctionResponse,
  NewEvent,
  StepDecision,
  Usage,
} from '../session/event';

export type { StepDecision };
import type { SessionStore } from '../session/store';
import type { ToolDeclaration } from '../tools/declaration';
import type { ToolOutcome } from '../tools/invoke-tool';

export type { AgentSpec, CallInfo, ToolCallRequest };

// ---- What the worker gives the loop

/** Runs a page tool; resolves with an outcome, never rejects for a tool's own failure. */
export interface ToolRunner {
  run(
    request: ToolCallRequest,
    options: { signal: AbortSignal; onChunk?: (chunk: unknown) => void },
  ): Promise<ToolOutcome>;
}

/** What the page contributes to the loop besides running tools. */
export interface FlowHooks {
  /** Which callbacks the page has; the loop skips a round trip for the others. */
  has: { beforeModel?: boolean; afterModel?: boolean; beforeTool?: boolean; afterTool?: boolean };
  beforeModel(request: ModelRequest, agentName: string): Promise<unknown>;
  afterModel(response: ModelResponse, agentName: string): Promise<unknown>;
  beforeTool(call: CallInfo): Promise<unknown>;
  afterTool(call: CallInfo & { result: unknown; error?: string }): Promise<unknown>;
  /**
   * The calls of one turn that may need approval, in one hop to the page:
   * each call's arguments as the tool's own schema parses them (defaults,
   * transforms), its rule applied to those, and the person's decision where
   * the page decides approvals itself (onApproval). The person is shown, and
   * approves, exactly the parsed arguments.
   */
  prepareCalls(invocationId: string, calls: CallInfo[]): Promise<PreparedCall[]>;
}

/** The toolkit graph's say in which tools a run describes and a step allows. */
export interface ToolSelector {
  /** Tool names the run's prompt describes, and a system-prompt section for the run; the same for every step. */
  describeRun(declared: string[]): RunDescription;
  /** Tool names this step allows (the grammar narrows; the prompt stays). */
  select(declared: string[]): { offered: string[] };
  /** After a successful call: the actions that call this tool become current. */
  afterCall(toolName: string): void;
}

/** What a run's prompt describes of the tools, fixed at the run's first step with an agent. */
export interface RunDescription {
  described: string[];
  prompt?: string;
}

/** The run's limits: the output of createAgent's limits schema (contract/limits.ts), defaults applied. */
export type FlowLimits = Limits;

/** What stays the same for every run of one agent on one session. */
export interface AgentContext {
  sessionId: string;
  appName: string;
  userId: string;
  store: SessionStore;
  engine: ModelEngine;
  tools: ReadonlyMap<string, ToolDeclaration>;
  agents: ReadonlyMap<string, AgentSpec>;
  rootAgent: string;
  runner: ToolRunner;
  hooks: FlowHooks;
  selector?: ToolSelector;
  /** The worker's composition of the step; defaults when absent. */
  requestProcessors?: readonly RequestProcessor[];
  responseProcessors?: readonly ResponseProcessor[];
  limits: FlowLimits;
  /** The decision layer's parts this agent's runs take (contract/decisions.ts); absent: none. */
  decisions?: Decisions;
  /** The agent's tool choice (AgentOptions.toolChoice); a run may override it. */
  toolChoice?: ToolChoice;
}

// ---- Events and where they go

/** An event as a writer gives it: the recorder adds the id, the session, the invocation and the time. */
export type EventDraft = Omit<NewEvent, 'id' | 'sessionId' | 'invocationId' | 'timestamp'> &
  Partial<Pick<NewEvent, 'id' | 'timestamp' | 'invocationId'>>;

/** Where an event goes: the session's store, then the run's history and stream. */
export interface RecordTarget {
  sessionId: string;
  invocationId: string;
  store: SessionStore;
  /** The session's events as this run knows them; each recorded event is added. */
  history: AgentEvent[];
  /** Merged state view plus this invocation's temp: keys. */
  state: Record<string, unknown>;
  /** Receives every event: stored ones after they are stored, partial ones at once. */
  emit(event: AgentEvent): void;
}

// ---- A run

/** How a run starts, decided from the session as read under its lock. */
export type RunStart = (
  | /** A new user message (its id chosen by the page); `before` answers what the session still had open. */
    { kind: 'user'; text: string; messageId: string; before?: EventDraft[] }
    /** Continue a turn whose calls waited for approval, once `before` (the last decision) is recorded. */
  | {
      kind: 'calls';
      agentName: string;
      calls: FunctionCall[];
      decided: ReadonlyMap<string, Decision>;
      before: EventDraft[];
    }
  /** Continue the conversation once `before` (e.g. a long-running call's answer) is recorded. */
  | { kind: 'continue'; before: EventDraft[] }
  /** Record `before` and stop there (e.g. one decision while other calls of the turn still wait). */
  | { kind: 'record'; before: EventDraft[] }
  /** Nothing to do (e.g. a message sent again that was stored after all). */
  | { kind: 'nothing' }
) & {
  /** The invocation to continue; absent: a new one. */
  invocationId?: string;
};

/** What one run keeps for itself from step to step. */
export interface RunState {
  /** What the run's prompt describes, per agent (see request-processors/tools.ts). */
  descriptions: Map<string, RunDescription>;
  /** The history as messages so far (history-to-messages.ts). */
  converted: ConvertedHistory;
  /** A step to decide again, held to a call of these tools: its reply claimed their action (decisions/hold-to-claims.ts). */
  redo?: { tools: string[]; claimed: string };
  /** The run has decided a step again once; a second claim is answered plainly. */
  redecided?: boolean;
  /**
   * A call that packed several items in one text was refused (decisions/one-item-each.ts): its tool, the
   * argument, and the items, which the retry's arguments are held to; `retried` once the retry's turn went on.
   */
  oneItemEach?: { tool: string; key: string; items: string[]; retried?: boolean };
  /** An optional argument refused as one no one asked for (decisions/grounded-values.ts): the retry's grammar leaves it out. */
  leftOut?: { tool: string; key: string };
  /** A needed value refused as the tool's action alone (decisions/grounded-values.ts): the retry's grammar holds it to the request's words for things. */
  thingsAsked?: { tool: string; key: string; items: string[] };
  /** A call refused for sorting the other way than the request asks (decisions/asked-order.ts): the retry's grammar holds the argument to `value`. */
  orderAsked?: { tool: string; key: string; value: unknown };
  /** Calls the run refused as repeats so far (call-processors/repeat-guard.ts). */
  repeatedCalls?: number;
  /** The tokens of the system prompt and the tool descriptions, counted when they change (request-processors/context-window.ts). */
  fixedTokens?: { modelId: string; system: string; tools: readonly ToolDeclaration[]; tokens: number };
}

/** A run's history as the messages a model reads, converted up to `events`. */
export interface ConvertedHistory {
  /** How many events of the history are converted. */
  events: number;
  /** Their messages, without the answers that calls still lack. */
  messages: ChatMessage[];
  answered: Set<string>;
  /** Calls without an answer yet, in the order made, each with the place of its missing answer in `messages`. */
  unanswered: Map<string, { name: string; after: number }>;
}

/** One run: the agent's context, the session as read under its lock, and where events go. */
export interface Invocation extends AgentContext, RecordTarget {
  /** The run's tool choice (see AgentOptions.toolChoice); absent: 'auto'. */
  toolChoice?: ToolChoice;
  signal: AbortSignal;
  run: RunState;
}

/** A person's decision on a call that waited for approval. */
export interface Decision {
  granted: boolean;
  reason?: string;
  /** The arguments the person saw: the tool's own schema's output. */
  args?: unknown;
}

// ---- One step: the request

/** A step's model request as the request processors build it. */
export interface StepRequest {
  agent: AgentSpec;
  /** Sections of the system prompt, joined in order. */
  system: string[];
  messages: ChatMessage[];
  /** Described in the prompt; the same for every step of the run. */
  tools: ToolDeclaration[];
  /** What this step may call (a subset of `tools`); absent: all of them. */
  allowedTools?: string[];
  /** Arguments narrower than a tool's schema for this step, held by the grammar only (ModelRequest.narrowedArguments). */
  narrowedArguments?: ModelRequest['narrowedArguments'];
  /** Messages the context-window guard dropped, said in the model event. */
  trimmed: number;
  /** The prompt's tokens as the context-window guard counted them (to learn how far it was off). */
  estimatedTokens?: number;
  toolChoice?: ToolChoice;
  /** What the decision layer decided for this step, recorded on its model event. */
  decision?: StepDecision;
  /** What the decision's own look at the prompt read (callChance): part of the step's usage. */
  decisionUsage?: Usage;
}

/** Adds one thing to a step's request (after ADK's request processors). */
export type RequestProcessor = (inv: Invocation, request: StepRequest) => void | Promise<void>;

// ---- One step: the model's answer

export interface CallError {
  id?: string;
  name?: string;
  raw: string;
  message: string;
}

export interface StepResponse extends ModelResponse {
  callErrors: CallError[];
  /** What the model reasoned before answering (e.g. `<think>`); never run, never fed back. */
  reasoning?: string;
  /** The model's output as generated; absent when a callback answered. */
  raw?: string;
  notices?: { code: string; message: string }[];
  usage?: Usage;
  finishReason: FinishReason;
  startedAt: number;
  ms: number;
  /** Set when a callback answered instead of the model. */
  answeredBy?: 'beforeModel' | 'afterModel';
}

export interface ProcessedResponse {
  /** What the model was asked, for processors that hold its answer to the request's rules. */
  request: ModelRequest;
  response: StepResponse;
  calls: FunctionCall[];
  /** Calls answered with a message instead of running (unreadable, not allowed this step), by id. */
  refused: Map<string, Refused>;
}

/** Why a call was answered without running: what the model reads, and its stable code. */
export interface Refused {
  message: string;
  code: AgentErrorCode;
}

/** Sees the calls as the loop will record and run them, and may change them (after ADK's response processors). */
export type ResponseProcessor = (inv: Invocation, processed: ProcessedResponse) => void;

// ---- One step: the calls

/** What one call of a turn got: its function response and what the turn's event keeps beside it. */
export interface CallResponse {
  response: FunctionResponse;
  ms: number;
  artifact?: unknown;
  stateDelta?: Record<string, unknown>;
  transferTo?: string;
  escalate?: boolean;
  final?: boolean;
  longRunning?: boolean;
  /** The tool said going on makes no sense: the run ends after recording the responses. */
  fatal?: AgentErrorData;
  /** The loop ends the run after recording the responses, for this reason (e.g. a repeated call: repeat-guard.ts). */
  ends?: { reason: EndReason; code: string; message: string };
  /** What the tool event should say besides the response (e.g. an artifact that was dropped). */
  notices?: { code: string; message: string }[];
}

/** One call of a model turn as the call processors see it. */
export interface TurnCall {
  readonly call: FunctionCall;
  /** The page tool's declaration; absent for the built-in agent tools and for names no tool has. */
  readonly declaration?: ToolDeclaration;
  /** The arguments the call runs with: the model's, or a beforeTool callback's. */
  args: unknown;
  /** A person's decision: made in this turn, or recorded before a resume. */
  decision?: Decision;
  /** Set by the step that answers the call; the steps after it leave the call alone. */
  response?: CallResponse;
  /** Set when the page tool ran: the after-tool callbacks see those only. */
  ran?: boolean;
}

/** The calls of one model turn, in the model's order, on their way through the call processors. */
export interface Turn {
  readonly agentName: string;
  readonly calls: readonly TurnCall[];
  /** When handling the turn began (Date.now()), and the same on performance.now()'s clock. */
  readonly startedAt: number;
  readonly t0: number;
}

/** A step that sees the whole turn at once (validation, the approval gate); 'paused' ends the turn for a person. */
export type TurnProcessor = (inv: Invocation, turn: Turn) => Promise<void | 'paused'> | void;

/** A step of one call, taken for each call in turn (all at once when every call is read-only). */
export type CallProcessor = (inv: Invocation, turn: Turn, call: TurnCall) => Promise<void>;

/** How a turn's calls leave the run: going on to the next step, or ending it. */
export type CallsOutcome = { kind: 'continue' } | { kind: 'end'; reason: EndReason };
