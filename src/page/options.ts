/** createAgent's options: the public contract (DESIGN.md, "Public API"). */
import type { ModelRequest, ModelResponse, ToolChoice } from '../model/engine';
import type { ModelOptions } from '../model/model-options';
import type { AgentEvent, ApprovalRequest } from '../session/event';
import type { RunCall } from '../session/run-calls';
import type { Tool } from '../tools/define-tool';
import type { AgentSpec } from '../contract/protocol';
import type { LimitOptions } from '../contract/limits';
import type { DecisionOptions } from '../contract/decisions';

type OneOrMany<F> = F | F[];

export interface AgentCallbacks {
  /** Return a response (a string or { text, toolCalls }) to answer instead of the model. */
  beforeModel?: OneOrMany<(request: ModelRequest, info: { agentName: string }) => unknown>;
  /** Return a response to replace the model's. */
  afterModel?: OneOrMany<(response: ModelResponse, info: { agentName: string }) => unknown>;
  /** Return { args } to change the arguments or { result } to answer without running the tool. */
  beforeTool?: OneOrMany<(call: { name: string; args: unknown; callId: string }) => unknown>;
  /** Return a value to replace the tool's result. */
  afterTool?: OneOrMany<
    (call: { name: string; args: unknown; callId: string; result: unknown; error?: string }) => unknown
  >;
  /** Every event of every run, as it arrives (partial ones included). */
  onEvent?: OneOrMany<(event: AgentEvent) => void>;
}

/** The run's limits (maxSteps and the others) are their schema's, with its docs and defaults: contract/limits.ts. */
export interface AgentOptions extends LimitOptions, DecisionOptions {
  model: ModelOptions;
  instructions?: string;
  tools?: Tool[];
  sessionId?: string;
  appName?: string;
  userId?: string;
  dbName?: string;
  storage?: 'indexeddb' | 'memory' | 'auto';
  onApproval?: (call: ApprovalRequest) => boolean | Promise<boolean>;
  callbacks?: AgentCallbacks;
  agents?: AgentSpec[];
  rootAgent?: string;
  toolkit?: { startActions: string[]; threshold?: number; hops?: number };
  /**
   * Whether the model may ('auto', the default), must ('required', or `{ name }`
   * for one tool) or must not ('none') call a tool. 'required' and `{ name }`
   * hold for a run's first model step, so the run can still end with an answer;
   * 'none' holds for every step. A run's own toolChoice overrides this.
   */
  toolChoice?: ToolChoice;
  /**
   * Where the worker script (inpage-agent/worker, dist/inpage-agent.worker.js,
   * with dist/chunks/ beside it) is served. Absent: found beside the package's
   * module, as Vite, webpack and Parcel arrange by themselves.
   */
  workerUrl?: string | URL;
  /** Where the shared worker script (inpage-agent/shared-worker) is served, for share: 'tabs'; of the page's origin. Absent: as for workerUrl. */
  sharedWorkerUrl?: string | URL;
  share?: 'tabs';
  restart?: 'auto' | 'never';
  /**
   * true: once the model has loaded (and again after each openSession() and each restart), the agent reads
   * the constant part of the prompt ahead in the background (agent.warmup()), so that the first request
   * prefills only itself. Each result comes as a 'warmup' event. Default false.
   */
  warmup?: boolean;
  /** Aborting it while the agent starts (e.g. a model download) stops the start and its worker. */
  signal?: AbortSignal;
}

export interface RunOptions {
  signal?: AbortSignal;
  /** What to do when another tab or agent is running this session: wait for it (default) or fail at once. */
  ifBusy?: 'wait' | 'fail';
  /** This run's tool choice, instead of createAgent({ toolChoice }). */
  toolChoice?: ToolChoice;
}

/**
 * What a run did. Each field is read from the run's stored events, so it says what happened, whatever the
 * reply says; more such readings of the run may be added beside `calls`.
 */
export interface RunResult {
  /** The final answer: the model's last text, or a return-direct tool's output. */
  text: string;
  events: AgentEvent[];
  endReason?: AgentEvent['endReason'];
  error?: AgentEvent['error'];
  /**
   * Every call of the run, in its order, with its arguments and what became of it: ran (with its result),
   * failed (with its error), refused (by validation or a rule), not approved, or still waiting. A reply that
   * claims an action with no 'ran' call behind it claims what did not happen.
   */
  calls: RunCall[];
  /**
   * Sentences of the model's reply that claimed an action no call of the run performed ("The table is
   * sorted by price."), with the tools whose action they claim. The decision layer replaced that reply
   * with a plain "nothing was done" (createAgent({ decisions })); absent when no reply claimed in vain.
   */
  unperformedClaims?: {
    sentence: string;
    tools: string[];
    ran?: true;
    /** A thing said to have left the page ("I sent the message"), which none of the tools does: its verb. */
    beyond?: { base: string; done: string };
  }[];
}
