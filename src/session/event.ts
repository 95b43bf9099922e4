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
 * to words because the request shares no word with any tool ('words') or asks what was done ('question'); or either way by the model's own odds
 * of opening with a call ('chance').
 */
export interface StepDecision {
  /** 'call': the step was held to a call (of `tools` when named); 'answer': to words. */
  held: 'call' | 'answer';
  /**
   * 'asked': the request named a tool's action; 'values': it gave a value in a format a tool takes; 'goes-on': it
   * went on from the request before ("and pack the kitchen"), held to the tools that one ran; 'reads': a question
   * named what a tool that reads holds ("what's still on the list?"), held to that tool; 'words': no
   * tool's word was in it; 'question': it asked what was done ("did you add it?"); 'chance': the model's odds; 'claim': a reply claimed an action no call did.
   */
  by: 'asked' | 'values' | 'goes-on' | 'reads' | 'words' | 'question' | 'chance' | 'claim';
  /** The tools the step was held to: the ones the request named by their action ('asked'), or the ones its words point to. */
  tools?: string[];
  /** What the reply the step replaces claimed ('claim'): the model said so without a call. */
  claimed?: string;
  /** The model's probability of opening with a call (0..1), and how long reading it took. */
  chance?: number;
  ms?: number;
}

/**
 * What kind of event it is, for TypeScript's narrowing (`if (event.type === 'tool') event.content.parts`):
 * derived from the event's fields (eventType), never trusted from a stored or imported log.
 * - 'user': the visitor's message (content.role 'user');
 * - 'model': a model step, its text and its calls (content.role 'model');
 * - 'tool': the answers to a turn's calls (content.role 'tool');
 * - 'partial': a streamed piece (text, reasoning, a call being written, how far the model read), never stored;
 * - 'approval-request': calls that wait for a person (actions.requestApproval);
 * - 'approval': a person's decision (actions.approval);
 * - 'end': a run's ending with nothing else in it (endReason, often error);
 * - 'notice': anything else (a notice, a state change).
 * A 'model' or 'tool' event may end the run too: `endReason` says so on any kind.
 */
export type EventType = 'user' | 'model' | 'tool' | 'partial' | 'approval-request' | 'approval' | 'end' | 'notice';

/** Every field an event may have; each kind of AgentEvent says which it always has. */
export interface EventFields {
  /** What kind of event this is (see EventType). */
  type: EventType;
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
  unperformedClaims?: {
    sentence: string;
    tools: string[];
    ran?: true;
    /** A thing said to have left the page ("I sent the message"), which none of the tools does: its verb. */
    beyond?: { base: string; done: string };
  }[];
  /** Set on the event that ends an invocation. */
  endReason?: EndReason;
  /** A late answer from a tool whose call had already ended (abort, timeout); recorded, never used. */
  late?: boolean;
}

export interface UserEvent extends EventFields {
  type: 'user';
  content: { role: 'user'; parts: Part[] };
}
export interface ModelEvent extends EventFields {
  type: 'model';
  content: { role: 'model'; parts: Part[] };
}
export interface ToolEvent extends EventFields {
  type: 'tool';
  content: { role: 'tool'; parts: Part[] };
}
export interface PartialEvent extends EventFields {
  type: 'partial';
  partial: true;
}
export interface ApprovalRequestEvent extends EventFields {
  type: 'approval-request';
  actions: EventActions & { requestApproval: ApprovalRequest[] };
}
export interface ApprovalEvent extends EventFields {
  type: 'approval';
  actions: EventActions & { approval: NonNullable<EventActions['approval']> };
}
export interface EndEvent extends EventFields {
  type: 'end';
  endReason: EndReason;
}
export interface NoticeEvent extends EventFields {
  type: 'notice';
}

/** An event of a session, told apart by `type`; every other field is as it always was. */
export type AgentEvent =
  UserEvent | ModelEvent | ToolEvent | PartialEvent | ApprovalRequestEvent | ApprovalEvent | EndEvent | NoticeEvent;

/** An event before the store numbers it (and gives it its type). */
export type NewEvent = Omit<EventFields, 'seq' | 'type'> & { seq?: number; type?: EventType };

/** The kind of an event, from its fields: a streamed piece, then its content's role, then its actions, then its ending. */
function eventType(event: Omit<NewEvent, 'type'>): EventType {
  if (event.partial) return 'partial';
  const role = event.content?.role;
  if (role === 'user' || role === 'model' || role === 'tool') return role;
  if (event.actions?.requestApproval) return 'approval-request';
  if (event.actions?.approval) return 'approval';
  if (event.endReason) return 'end';
  return 'notice';
}

/** The event with the type its fields say (whatever a stored or imported log claimed). */
export function typed(event: NewEvent & { seq: number }): AgentEvent {
  return { ...event, type: eventType(event) } as AgentEvent;
}

let counter = 0;
/** Ids sortable by creation time, unique within and across tabs. */
export function newId(prefix = 'e'): string {
  counter = (counter + 1) % 0x10000;
  const random = crypto.getRandomValues(new Uint32Array(2));
  return `${prefix}-${Date.now().toString(36)}-${counter.toString(36)}-${random[0]!.toString(36)}${random[1]!.toString(36)}`;
}
