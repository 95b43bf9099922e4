/**
 * The loop's vocabulary: what an invocation needs from the outside world.
 * The worker provides these; the loop never knows about comlink or pages.
 */
import type { AgentEvent, ApprovalRequest } from '../session/event';
import type { SessionStore } from '../session/store';
import type { ModelEngine, ModelRequest, ModelResponse, ToolChoice } from '../model/engine';
import type { ToolDeclaration } from '../tools/declaration';
import type { ToolOutcome } from '../tools/invoke-tool';
import type { RequestProcessor } from './request-processors';
import type { ResponseProcessor } from './response-processors';

import type { AgentSpec, PreparedCall, ToolCallRequest } from '../contract/protocol';

export type { AgentSpec, ModelResponse, ToolCallRequest };

/** Runs a page tool; resolves with an outcome, never rejects for a tool's own failure. */
export interface ToolRunner {
  run(
    request: ToolCallRequest,
    options: { signal: AbortSignal; onChunk?: (chunk: unknown) => void },
  ): Promise<ToolOutcome>;
}

export interface ToolCallInfo {
  name: string;
  args: unknown;
  callId: string;
}

/** What the page contributes to the loop besides running tools. */
export interface FlowHooks {
  /** Which callbacks the page has; the loop skips a round trip for the others. */
  has: { beforeModel?: boolean; afterModel?: boolean; beforeTool?: boolean; afterTool?: boolean };
  beforeModel(request: ModelRequest, agentName: string): Promise<unknown>;
  afterModel(response: ModelResponse, agentName: string): Promise<unknown>;
  beforeTool(call: ToolCallInfo): Promise<unknown>;
  afterTool(call: ToolCallInfo & { result: unknown; error?: string }): Promise<unknown>;
  /**
   * For a call that may need approval: the page parses the arguments with
   * the tool's own schema (defaults, transforms) and applies its rule to what
   * `execute` would get. The person is shown, and approves, exactly that.
   */
  prepareCall(name: string, args: unknown): Promise<PreparedCall>;
  /** Present when the page decides approvals itself (onApproval). */
  approve?(call: ApprovalRequest): Promise<boolean>;
}

/** The toolkit graph's say in which tools a run describes and a step allows. */
export interface ToolSelector {
  /** Tool names the run's prompt describes, and a system-prompt section for the run; the same for every step. */
  describeRun(declared: string[]): { described: string[]; prompt?: string };
  /** Tool names this step allows (the grammar narrows; the prompt stays). */
  select(declared: string[]): { offered: string[] };
  /** After a successful call: the actions that call this tool become current. */
  afterCall(toolName: string): void;
}

export interface FlowLimits {
  maxSteps: number;
  maxToolCallsPerStep: number;
}

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
  /** The agent's tool choice (AgentOptions.toolChoice); a run may override it. */
  toolChoice?: ToolChoice;
}

/** One run: the agent's context, the session as read under its lock, and where events go. */
export interface Invocation extends AgentContext, RecordTarget {
  /** The run's tool choice (see AgentOptions.toolChoice); absent: 'auto'. */
  toolChoice?: ToolChoice;
  signal: AbortSignal;
}
