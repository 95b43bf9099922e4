/**
 * The page ↔ worker contract, and nothing else: what the page asks of the
 * worker (AgentHostApi) and what the worker asks of the page (PageApi), in
 * types only. Every value here crosses a structured-clone boundary through
 * comlink, so these are plain data types; functions cross only as comlink
 * proxies. What comlink lacks sits beside it: lifeline.ts (a dead worker is
 * noticed) and error-transfer.ts (an AgentError crosses whole).
 */
import type { AgentErrorData } from '../errors';
import type {
  ModelDelta,
  ModelHandle,
  ModelInfo,
  ModelProgress,
  ModelRequest,
  ModelResponse,
  PromptRead,
  ToolChoice,
  WarmupResult,
} from '../model/engine';
import type { ModelOptions } from '../model/model-options';
import type { ContextUsage } from '../model/context-usage';
import type { LimitOptions } from './limits';
import type { DecisionOptions } from './decisions';
import type { AgentEvent, ApprovalRequest } from '../session/event';
import type { AgentStats } from '../session/stats';
import type { Session, SessionSummary } from '../session/store';
import type { ToolkitApi } from '../toolkit/toolkit-api';
import type { ToolDeclaration } from '../tools/declaration';
import type { ToolOutcome } from '../tools/invoke-tool';

export type { AgentStats, ContextUsage };

/** The model options without the page-side progress callback, which cannot be cloned. */
export type HostModelOptions = ModelOptions extends infer M
  ? M extends unknown
    ? Omit<M, 'onProgress'>
    : never
  : never;

/** One agent of a page's team (createAgent({ agents })), as the page gives it and the loop runs it. */
export interface AgentSpec {
  name: string;
  instructions: string;
  description?: string;
  /** Tool names this agent may call; absent: every registered tool. */
  tools?: string[];
}

export type CallbackKind = 'beforeModel' | 'afterModel' | 'beforeTool' | 'afterTool';

/**
 * createAgent's options as they reach the worker (functions removed). The limits are contract/limits.ts's
 * shape; one left out (an older page) gets its default there (limitsOf).
 */
export interface HostConfig extends LimitOptions, DecisionOptions {
  appName: string;
  userId: string;
  dbName: string;
  storage: 'indexeddb' | 'memory' | 'auto';
  sessionId?: string;
  instructions: string;
  model: HostModelOptions;
  tools: ToolDeclaration[];
  /** Which page callbacks exist; the worker calls PageApi.callback only for these. */
  callbacks: Partial<Record<CallbackKind, boolean>>;
  agents: AgentSpec[];
  rootAgent?: string;
  toolkit?: { startActions: string[]; threshold?: number; hops?: number };
  toolChoice?: ToolChoice;
  /** A Web Lock the page holds while it lives; a shared host frees the tab's share when it is released. */
  tabLock?: string;
}

export interface HostInfo {
  sessionId: string;
  model: ModelInfo;
  storage: 'indexeddb' | 'memory';
  /** Said when storage fell back to memory ('auto'). */
  storageNotice?: string;
  /** True when another tab had already loaded this model in the shared worker. */
  modelShared: boolean;
  /** 'shared-worker' (one model for every tab) or 'worker' (this tab's own). */
  host: 'shared-worker' | 'worker';
  /** Why this tab runs a worker of its own although share: 'tabs' was asked for. */
  hostNotice?: string;
}

/**
 * Where a run's events arrive: a MessagePort (transferred) whose messages
 * are the run's events in order, as AgentEvent objects, then `null`: the run
 * is over. The page closes it to stop listening.
 */
export type EventPort = MessagePort;

interface RunControl {
  /** Chosen by the page, so it can stop the run (AgentHostApi.abort). */
  runId: string;
  /** When another run holds the session: wait for it, or fail at once with session-busy. */
  ifBusy: 'wait' | 'fail';
}

export interface RunInput extends RunControl {
  text: string;
  /** The user event's id, chosen by the page: a message sent again after a crash is stored once. */
  messageId: string;
  toolChoice?: ToolChoice;
}

export interface DecisionInput extends RunControl {
  callId: string;
  granted: boolean;
  reason?: string;
}

export interface ResolutionInput extends RunControl {
  callId: string;
  result: unknown;
}

/** agent.resume(): go on with the session's last run if a reload or a crash cut it off. */
export type ResumeInput = RunControl;

/** agent.warmup(): read the prompt's constant part ahead; `runId` (the page's) aborts it through abort(). */
export interface WarmupInput {
  runId: string;
}

/**
 * One command starts every run; its kind mirrors how the flow starts one (flow/*-start.ts): a new message,
 * the resumption of a run cut off, a person's decision on a call waiting for approval, a long-running
 * call's result.
 */
export type RunCommand =
  | ({ kind: 'message' } & RunInput)
  | ({ kind: 'resume' } & ResumeInput)
  | ({ kind: 'decision' } & DecisionInput)
  | ({ kind: 'resolution' } & ResolutionInput);

/** The worker's runs (AgentHostApi.runs). */
export interface RunsApi {
  /**
   * Starts a run; its events come back on the port, the last one carries an endReason. A decision rejects
   * with approval-not-pending, a resolution with not-pending, when the call does not wait for it; a resume
   * ends the port at once when the session's last run had ended.
   */
  start(command: RunCommand): Promise<EventPort>;
  /** Stops a run, or a warmup, by the id the page gave it. */
  abort(runId: string): void;
}

/** The agent's sessions in the worker's store (AgentHostApi.sessions). */
export interface SessionsApi {
  list(): Promise<SessionSummary[]>;
  get(id: string): Promise<SessionView | undefined>;
  delete(id: string): Promise<void>;
  export(id: string): Promise<string>;
  import(jsonl: string, onProgress?: (progress: ImportProgress) => void): Promise<string>;
  /**
   * Opens the session `sessionId` (created if the store has none), or a new one, in place of the agent's
   * session: the engine stays loaded. Runs under way go on in the session they started in.
   */
  open(sessionId?: string): Promise<HostInfo>;
  /** Whether the open session holds an event with this id (a message the page is not sure was stored). */
  hasEvent(id: string): Promise<boolean>;
  pendingApprovals(): Promise<ApprovalRequest[]>;
  stats(): Promise<AgentStats>;
}

/** The page's tools as the worker knows them (AgentHostApi.tools). */
export interface ToolsApi {
  register(tools: ToolDeclaration[]): Promise<void>;
  unregister(name: string): Promise<void>;
  /** A streamed piece of a running call's output (PageApi.callTool's), sent before the call's own answer. */
  chunk(callId: string, chunk: unknown): void;
  /** A call's outcome that arrived after its run had moved on. */
  recordLate(request: ToolCallRequest, outcome: ToolOutcome): Promise<void>;
}

/** The agent's model (AgentHostApi.model): its cache, and its steps outside the loop. */
export interface ModelApi extends ModelHandle {
  /** One step of the agent's model, outside the loop and the session; cancelling the stream aborts it. */
  generate(request: ModelRequest): Promise<ReadableStream<ModelDelta>>;
  /**
   * Reads ahead the start of the prompt the session's next message will get (the system text, the tools,
   * the conversation so far), in the engine's next turn, taken now: a step asked for later waits for it
   * and prefills only its own part. Resolves at once with status 'unsupported' for an engine that cannot.
   * `onRead` (a comlink proxy) hears how far it has read.
   */
  warmup(input: WarmupInput, onRead?: (progress: PromptRead) => void): Promise<WarmupResult>;
  /** How the next step would spend the model's context window, in tokens. */
  contextUsage(): Promise<ContextUsage>;
}

/**
 * The worker's side, exposed with comlink on the worker's one port: its start and end, and its services
 * (runs, sessions, tools, model, toolkit), which the page reaches by path (`remote.runs.start(...)` is one
 * message naming ['runs', 'start']). One port delivers in the order the page sent, so a run sent after
 * `tools.register` or `sessions.open` reaches the worker after it, and the worker holds what it must
 * (a run waits for the session opened before it: openedReady in worker/ready.ts).
 */
export interface AgentHostApi {
  /** Resolves once the worker holds the named Web Lock, which it keeps until it dies. */
  holdLifeline(name: string): Promise<void>;
  init(config: HostConfig, page: PageApi): Promise<HostInfo>;
  readonly runs: RunsApi;
  readonly sessions: SessionsApi;
  readonly tools: ToolsApi;
  /** The model's cache and its steps outside the loop. */
  readonly model: ModelApi;
  /** The toolkit graph's service: the page calls its methods directly. */
  readonly toolkit: ToolkitApi;
  close(): Promise<void>;
}

export interface SessionView {
  id: string;
  state: Record<string, unknown>;
  events: AgentEvent[];
  session: Session;
}

export interface ImportProgress {
  linesDone: number;
  linesTotal: number;
}

/** One function call as the page's callbacks and its approval step see it. */
export interface CallInfo {
  /** The runtime's id of the call (never the model's). */
  callId: string;
  name: string;
  args: unknown;
}

/** What a page callback is asked (PageApi.callback). */
export type CallbackPayload =
  | { kind: 'beforeModel'; request: ModelRequest; agentName: string }
  | { kind: 'afterModel'; response: ModelResponse; agentName: string }
  | ({ kind: 'beforeTool' } & CallInfo)
  | ({ kind: 'afterTool'; result: unknown; error?: string } & CallInfo);

/** One call of a page tool, as the loop asks the page to run it. */
export interface ToolCallRequest {
  /** The runtime's id of the call (never the model's). */
  callId: string;
  name: string;
  /** The arguments as the model wrote them (or as a beforeTool callback replaced them). */
  args: unknown;
  /**
   * Set when a person approved this call: the arguments the tool's own schema
   * made of `args` then. The page runs the call only with exactly these, so
   * what runs is what was approved.
   */
  approvedArgs?: unknown;
  sessionId: string;
  invocationId: string;
  agentName: string;
  state: Record<string, unknown>;
}

/**
 * A call's arguments parsed with the tool's own schema, and whether the call
 * needs approval; `granted` when the page asked its person (onApproval).
 * Refused (`ok: false`) when the arguments do not parse.
 */
export type PreparedCall =
  { ok: true; args: unknown; needsApproval: boolean; granted?: boolean } | { ok: false; error: AgentErrorData };

/** The page's side, handed to the worker as a comlink proxy. */
export interface PageApi {
  /** Runs a page tool; streamed chunks come back through ToolsApi.chunk. */
  callTool(request: ToolCallRequest): Promise<ToolOutcome>;
  abortTool(callId: string): void;
  /**
   * The calls of one model turn that may need approval, in one hop: each
   * parsed with its tool's schema, the tool's needsApproval rule applied to
   * what `execute` would get, and the person asked where the page decides
   * approvals itself (onApproval). A call the page prepared runs later with
   * exactly the arguments it parsed here (see ToolCallRequest.approvedArgs).
   */
  prepareCalls(invocationId: string, calls: CallInfo[]): Promise<PreparedCall[]>;
  callback(payload: CallbackPayload): Promise<unknown>;
  progress(progress: ModelProgress): void;
  /**
   * Awaited by the worker: this proxy is a channel of its own, so a status not yet answered could reach
   * the page after init()'s reply and undo the 'ready' or 'running' the page has set since.
   */
  status(status: AgentStatus, detail?: string): void | Promise<void>;
}

export type AgentStatus = 'starting' | 'loading-model' | 'ready' | 'running' | 'crashed' | 'closed';
