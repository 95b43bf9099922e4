/**
 * The event log's vocabulary, after ADK. Events are append-only and numbered
 * per session; `partial` events are streamed pieces and never stored.
 */
import type { AgentErrorData } from '../errors';
import type { Usage } from '../model/usage';

export type { Usage };

export interface FunctionCall {
  /** The runtime's id: unique, never chosen by the model. Approvals, answers and resolutions refer to it. */
  id: string;
  name: string;
  args: unknown;
  /** The id the model wrote, kept only for formats that echo it back (e.g. a native tool_call_id). It decides nothing. */
  modelCallId?: string;
}

export interface FunctionResponse {
  id: string;
  name: string;
  response: unknown;
  /** Set when the call failed; the model reads it and may correct itself. */
  error?: string;
  /** The failure's stable code (an AgentErrorCode such as tool-timeout or tool-result-too-large), for pages and telemetry; the model reads `error`. */
  code?: string;
}

export type Part =
  | { text: string }
  /** What the model reasoned before it answered (e.g. `<think>`): shown and stored, never fed back as an answer, never run. */
  | { reasoning: string }
  | { functionCall: FunctionCall }
  | { functionResponse: FunctionResponse };

export type ContentRole = 'user' | 'model' | 'tool';

export interface Content {
  role: ContentRole;
  parts: Part[];
}

export interface ApprovalRequest {
  callId: string;
  name: string;
  args: unknown;
}

export interface EventActions {
  stateDelta?: Record<string, unknown>;
  transferToAgent?: string;
  escalate?: boolean;
  /** A decision on a call that needed approval. */
  approval?: { callId: string; granted: boolean; reason?: string };
  /** Calls that wait for a person's decision before they run. */
  requestApproval?: ApprovalRequest[];
}

/** Why an invocation ended; the last event of every invocation carries one. */
export type EndReason =
  | 'answer'
  | 'return-direct'
  | 'max-steps'
  | 'max-tool-calls'
  | 'aborted'
  | 'error'
  | 'awaiting-approval'
  | 'long-running'
  /** The model called a tool again with the same arguments after it was told not to (createAgent({ maxRepeatedCalls })). */
  | 'repeated-call';

/**
 * What the decision layer decided for a step before it wrote anything, as its model event records it: held to
 * a call because the request named a tool's action ('asked') or because its reply claimed one ('claim'); held
 * to words because the request shares no word with any tool ('words'); or either way by the model's own odds
 * of opening with a call ('chance').
 */
export interface StepDecision {
  /** 'call': the step was held to a call (of `tools` when named); 'answer': to words. */
  held: 'call' | 'answer';
  by: 'asked' | 'words' | 'chance' | 'claim';
  /** The tools the request named by their action ('asked'). */
  tools?: string[];
  /** What the reply the step replaces claimed ('claim'): the model said so without a call. */
  claimed?: string;
  /** The model's probability of opening with a call (0..1), and how long reading it took. */
  chance?: number;
  ms?: number;
}

export interface AgentEvent {
  id: string;
  sessionId: string;
  invocationId: string;
  /** Position in the session, from 1; 0 on a partial event that is never stored. */
  seq: number;
  author: 'user' | string;
  timestamp: number;
  content?: Content;
  partial?: boolean;
  actions?: EventActions;
  longRunningToolIds?: string[];
  error?: AgentErrorData | { code: string; message: string };
  usage?: Usage;
  timing?: { startedAt: number; ms: number };
  /** Tool names the model was allowed to call in this step (model events); the run's prompt may describe more. */
  offeredTools?: string[];
  /** Page-side data a tool returned beside what the model sees (ToolResult.artifact), by call id. */
  artifacts?: Record<string, unknown>;
  /** Milliseconds each call of a merged tool-response event took, by call id. */
  toolTimings?: Record<string, number>;
  /**
   * The model's output exactly as it generated it, markup included (model
   * events). Later requests replay it verbatim, so the engine's KV cache stays
   * valid. Absent when a callback answered instead of the model.
   */
  raw?: string;
  /** Things the person or developer should know about this step, e.g. a grammar fallback (model events) or a dropped artifact (tool events). */
  notices?: { code: string; message: string }[];
  /** Messages the context-window guard left out of this step's request (model events). */
  contextTrimmed?: number;
  /**
   * On a partial event only: the model began writing a call to this tool (its arguments are still being
   * written). A page may show the call at once; the model event that follows holds the call itself, or none
   * when it could not be read.
   */
  toolCallStart?: { name: string };
  /**
   * On a partial event only: how far the model has read this step's prompt, `read` of the `of` tokens it had
   * to read (its cache held the rest). Comes while a model reads, before its first word, from engines that
   * can tell (llama.cpp).
   */
  promptRead?: { read: number; of: number };
  /** What the decision layer decided before this step wrote anything (model events). */
  decision?: StepDecision;
  /**
   * What the model's reply claimed was done that no call of the run did (model events that answer): the
   * reply the person sees then says plainly that nothing was done (flow/decisions/hold-to-claims.ts).
   */
  unperformedClaims?: { sentence: string; tools: string[] }[];
  /** Set on the event that ends an invocation. */
  endReason?: EndReason;
  /** A late answer from a tool whose call had already ended (abort, timeout); recorded, never used. */
  late?: boolean;
}

/** An event before the store numbers it. */
export type NewEvent = Omit<AgentEvent, 'seq'> & { seq?: number };

let counter = 0;
/** Ids sortable by creation time, unique within and across tabs. */
export function newId(prefix = 'e'): string {
  counter = (counter + 1) % 0x10000;
  const random = crypto.getRandomValues(new Uint32Array(2));
  return `${prefix}-${Date.now().toString(36)}-${counter.toString(36)}-${random[0]!.toString(36)}${random[1]!.toString(36)}`;
}
