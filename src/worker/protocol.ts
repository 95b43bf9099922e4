/**
 * The page ↔ worker contract, and nothing else: what the page asks of the
 * worker (AgentHostApi) and what the worker asks of the page (PageApi).
 * Every value here crosses a structured-clone boundary through comlink, so
 * these are plain data types; functions cross only as comlink proxies.
 */
import type { AgentErrorData } from '../errors';
import type { AgentEvent, ApprovalRequest } from '../session/event';
import type { Session, SessionSummary } from '../session/store';
import type { ToolDeclaration } from '../tools/declaration';
import type { ModelInfo, ModelOptions, ModelProgress, ToolChoice } from '../model/engine';

/** The model options without the page-side progress callback, which cannot be cloned. */
export type HostModelOptions = ModelOptions extends infer M
  ? M extends unknown
    ? Omit<M, 'onProgress'>
    : never
  : never;
import type { ToolOutcome } from '../tools/invoke-tool';
import type { AgentSpec, AgentStats, CallbackKind, CallbackPayload, ToolCallRequest } from '../flow/types';

export type {
  AgentSpec,
  AgentStats,
  CallbackKind,
  CallbackPayload,
  ModelResponse,
  ToolCallRequest,
  ToolStats,
} from '../flow/types';

/** createAgent's options as they reach the worker (functions removed). */
export interface HostConfig {
  appName: string;
  userId: string;
  dbName: string;
  storage: 'indexeddb' | 'memory' | 'auto';
  sessionId?: string;
  instructions: string;
  model: HostModelOptions;
  tools: ToolDeclaration[];
  maxSteps: number;
  maxToolCallsPerStep: number;
  /** Which page callbacks exist; the worker calls PageApi.callback only for these. */
  callbacks: Partial<Record<CallbackKind, boolean>>;
  /** Whether the page decides approvals itself (onApproval given). */
  pageApproves: boolean;
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
}

export interface RunInput {
  runId: string;
  text?: string;
  ifBusy: 'wait' | 'fail';
  toolChoice?: ToolChoice;
}

/** The worker's side, exposed with comlink. */
export interface AgentHostApi {
  /** Resolves once the worker holds the named Web Lock, which it keeps until it dies. */
  holdLifeline(name: string): Promise<void>;
  init(config: HostConfig, page: PageApi): Promise<HostInfo>;
  /** Starts an invocation; its events stream back, the last one carries an endReason. */
  run(input: RunInput): Promise<ReadableStream<AgentEvent>>;
  abort(runId: string): void;
  decideApproval(runId: string, callId: string, granted: boolean, reason?: string): Promise<ReadableStream<AgentEvent>>;
  resolveTool(runId: string, callId: string, result: unknown): Promise<ReadableStream<AgentEvent>>;
  pendingApprovals(): Promise<ApprovalRequest[]>;
  recordLate(request: ToolCallRequest, outcome: ToolOutcome): Promise<void>;
  /** A streamed piece of a running call's output (sent by the page, so no channel is opened per call). */
  toolChunk(callId: string, chunk: unknown): void;
  registerTools(tools: ToolDeclaration[]): Promise<void>;
  unregisterTool(name: string): Promise<void>;
  listSessions(): Promise<SessionSummary[]>;
  getSession(id: string): Promise<SessionView | undefined>;
  deleteSession(id: string): Promise<void>;
  exportSession(id: string): Promise<string>;
  importSession(jsonl: string, onProgress?: (progress: ImportProgress) => void): Promise<string>;
  toolkitCall(method: string, args: unknown[]): Promise<unknown>;
  modelCall(method: 'isCached' | 'deleteCache'): Promise<unknown>;
  stats(): Promise<AgentStats>;
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

/** The page's side, handed to the worker as a comlink proxy. */
export interface PageApi {
  /** Runs a page tool; streamed chunks come back through AgentHostApi.toolChunk. */
  callTool(request: ToolCallRequest): Promise<ToolOutcome>;
  abortTool(callId: string): void;
  /** For tools whose needsApproval is a function of the arguments. */
  needsApproval(name: string, args: unknown): Promise<boolean>;
  /** Only when the page gave onApproval. */
  approve(call: ApprovalRequest): Promise<boolean>;
  callback(payload: CallbackPayload): Promise<unknown>;
  progress(progress: ModelProgress): void;
  status(status: AgentStatus, detail?: string): void;
}

export type AgentStatus = 'starting' | 'loading-model' | 'ready' | 'running' | 'crashed' | 'closed';

export type { AgentErrorData };
