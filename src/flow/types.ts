/**
 * The loop's vocabulary: what an invocation needs from the outside world.
 * The worker provides these; the loop never knows about comlink or pages.
 */
import type { AgentEvent, ApprovalRequest } from '../session/event';
import type { SessionStore } from '../session/store';
import type { ModelEngine, ModelRequest, ModelToolCall, ToolChoice } from '../model/engine';
import type { ToolDeclaration } from '../tools/declaration';
import type { ToolOutcome } from '../tools/invoke-tool';
import type { RequestProcessor } from './request-processors';
import type { ResponseProcessor } from './response-processors';

export interface AgentSpec {
  name: string;
  instructions: string;
  description?: string;
  /** Tool names this agent may call; absent: every registered tool. */
  tools?: string[];
}

/** What a model step produced, as callbacks see and replace it. */
export interface ModelResponse {
  text: string;
  toolCalls: ModelToolCall[];
}

export interface ToolCallRequest {
  callId: string;
  name: string;
  args: unknown;
  sessionId: string;
  invocationId: string;
  agentName: string;
  state: Record<string, unknown>;
}

export type CallbackKind = 'beforeModel' | 'afterModel' | 'beforeTool' | 'afterTool' | 'onEvent';

export type CallbackPayload =
  | { kind: 'beforeModel'; request: ModelRequest; agentName: string }
  | { kind: 'afterModel'; response: ModelResponse; agentName: string }
  | { kind: 'beforeTool'; name: string; args: unknown; callId: string }
  | { kind: 'afterTool'; name: string; args: unknown; callId: string; result: unknown; error?: string }
  | { kind: 'onEvent'; event: AgentEvent };

/** Runs a page tool; resolves with an outcome, never rejects for a tool's own failure. */
export interface ToolRunner {
  run(
    request: ToolCallRequest,
    options: { signal: AbortSignal; onChunk?: (chunk: unknown) => void },
  ): Promise<ToolOutcome>;
  /** Tells the page to stop a call whose answer is no longer wanted. */
  cancel(callId: string): void;
}

/** What the page contributes to the loop besides tools. */
export interface FlowHooks {
  /** Which callbacks the page has; the loop skips a round trip for the others. */
  has: Partial<Record<CallbackKind, boolean>>;
  callback(payload: CallbackPayload): Promise<unknown>;
  /** For tools whose needsApproval is a function of the arguments. */
  needsApproval(name: string, args: unknown): Promise<boolean>;
  /** Present when the page decides approvals itself (onApproval). */
  approve?(call: ApprovalRequest): Promise<boolean>;
}

/** The toolkit graph's say in which tools a step offers. */
export interface ToolSelector {
  /** Tool names for this step and a system-prompt section naming the next possible actions. */
  select(declared: string[]): { offered: string[]; prompt?: string };
  /** After a successful call: the actions that call this tool become current. */
  afterCall(toolName: string): void;
}

export interface FlowLimits {
  maxSteps: number;
  maxToolCallsPerStep: number;
}

export interface Invocation {
  sessionId: string;
  invocationId: string;
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
  /** The run's tool choice (see AgentOptions.toolChoice); absent: 'auto'. */
  toolChoice?: ToolChoice;
  signal: AbortSignal;
  /** The session's events so far; the loop appends to it as it stores events. */
  history: AgentEvent[];
  /** Merged state view (session, user:, app:) plus this invocation's temp: keys. */
  state: Record<string, unknown>;
  /** Receives every event: stored ones after they are stored, partial ones at once. */
  emit(event: AgentEvent): void;
}

export interface ToolStats {
  calls: number;
  errors: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
}

export interface AgentStats {
  sessionId: string;
  events: number;
  modelSteps: number;
  promptTokens: number;
  completionTokens: number;
  tools: Record<string, ToolStats>;
}
