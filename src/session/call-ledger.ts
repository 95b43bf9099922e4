/**
 * What a session's log says of each call, folded event by event: the one
 * reading of "is this call still waiting?". A model event makes a call; a
 * request may ask a person about it (awaiting approval) until a decision
 * approves or rejects it; a tool may say it answers later (long-running);
 * an answer closes it, and a repair's answer says it was cut off
 * (interrupted). A late answer is recorded, never used: it closes nothing.
 *
 * Every question about calls is a query on a ledger: the open calls the
 * session record keeps (open-calls.ts), the turn paused for a person
 * (open-approval.ts), a long-running call's result (flow/resolution-start.ts),
 * the calls a crash left open (repair.ts), and what an import may hold
 * (log-rules.ts, imported-approvals.ts).
 *
 * Within an event: its calls, then its answers, then its decision, then its
 * request (which asks again, so a decision before it no longer counts), then
 * its long-running ids. The runtime writes each of these in an event of its
 * own; the order only decides what a forged event holding several means.
 *
 * Folding costs each event the calls it names (a turn's calls, a request's
 * entries), never the calls already open or the events before it: linear in
 * the log. Pure: it reads only the ledger and the event and changes only the
 * ledger, which belongs to whoever folds. The open calls it starts from (a
 * session record's) are never written: what changes is kept beside them, in
 * a Map (measured on a turn of 10,000 calls: about half the time of editing
 * a copy of the record as it goes), and openCallsIn makes the record of both.
 */
import { approvalRequestProblem, turnCalls, type TurnCalls } from './approval-request-rule';
import type { AgentEvent, ApprovalRequest, FunctionResponse } from './event';
import { functionCalls, functionResponses } from './parts';

export interface OpenCall {
  name: string;
  /** The model event that made the call. */
  seq: number;
  invocationId: string;
  author: string;
  /**
   * Open on purpose. 'approval': a person has not decided yet; the other
   * calls of its turn wait with it (waitsOnPurpose). 'long-running': the
   * tool answers later (resolveTool). 'turn' was written by earlier
   * versions on those other calls; it means no more than their turn says.
   */
  waiting?: 'approval' | 'turn' | 'long-running';
}

/** Calls made and not answered, by call id: what the session record keeps (store.ts). */
export type OpenCalls = Record<string, OpenCall>;

/** A person's decision on an asked call, with the arguments that call was shown with. */
export interface ApprovalDecision {
  granted: boolean;
  reason?: string;
  args: unknown;
}

/** The last model turn, and what its requests and decisions say. */
export interface LedgerTurn {
  modelEvent: AgentEvent;
  calls: TurnCalls;
  /** A call of the turn answered (before the turn too, in a forged log that reuses an id), if any: a request then asks nothing. */
  answered?: string;
  /** Every call the turn's requests asked about, in the order first asked, each with the arguments its latest request shows. */
  asked: Map<string, ApprovalRequest>;
  /** The decisions that count, by call id: the first on each call after the latest request that asked about it. */
  decided: Map<string, ApprovalDecision>;
  /** The turn's requests, in order. */
  requests: AgentEvent[];
  /** The latest request, while the turn is paused on it: a model event or an answer (a tool event, late ones aside) moves on. */
  pausedOn?: AgentEvent;
  /** A request of the turn broke the rule of approval-request-rule.ts (a forged or edited log): the turn asks nothing. */
  broken: boolean;
}

export interface CallLedger {
  /** The open calls it started from (a session record's, or none); never written. */
  readonly since: OpenCalls;
  /** The calls made, marked or answered (null) since, in the order first changed. */
  readonly changed: Map<string, OpenCall | null>;
  /** Every call id made. */
  made: Set<string>;
  /** Every call id answered (late answers aside), and how. */
  answered: Map<string, 'answered' | 'interrupted'>;
  turn?: LedgerTurn;
}

/**
 * Where a call is in its life. 'made': it runs, or runs with its turn once
 * the turn's last asked call is decided, or a crash cut it off (only an
 * answer tells). 'approved'/'rejected': decided, not answered yet.
 */
export type CallPhase =
  'made' | 'awaiting-approval' | 'approved' | 'rejected' | 'long-running' | 'answered' | 'interrupted';

/** The error of an answer that says its call was cut off (repair.ts): the tool never ran again. */
export const INTERRUPTED = 'interrupted';

export function isInterruption(response: FunctionResponse): boolean {
  return response.error === INTERRUPTED;
}

/** A ledger for a log read from its first event, or for the events after a session record's open calls. */
export function newCallLedger(since: OpenCalls = {}): CallLedger {
  return { since, changed: new Map(), made: new Set(), answered: new Map() };
}

/** The ledger of `events`, in order, after `open`. */
export function callLedgerOf(events: readonly AgentEvent[], open?: OpenCalls): CallLedger {
  const ledger = newCallLedger(open);
  for (const event of events) applyToLedger(ledger, event);
  return ledger;
}

/**
 * The ledger after `event`, changed in place. Returns the first rule of
 * log-rules.ts that the event breaks, which means something only to a
 * ledger that read the log from its first event; the event is folded all
 * the same, as the runtime reads a stored log, whatever it holds.
 */
export function applyToLedger(ledger: CallLedger, event: AgentEvent): string | undefined {
  const badCall = event.content?.role === 'model' ? makeCalls(ledger, event) : undefined;
  // An answer moves a paused turn on; a late one is no answer.
  if (ledger.turn && event.content?.role === 'tool' && !event.late) ledger.turn.pausedOn = undefined;
  const badAnswer = answerCalls(ledger, event);
  if (event.actions?.approval) decide(ledger, event.actions.approval);
  const badRequest = event.actions?.requestApproval ? ask(ledger, event, event.actions.requestApproval) : undefined;
  for (const id of event.longRunningToolIds ?? []) mark(ledger, id, 'long-running');
  return badCall ?? badAnswer ?? badRequest;
}

/** A model event: its calls open, and it is the turn from now on. */
function makeCalls(ledger: CallLedger, event: AgentEvent): string | undefined {
  let broken: string | undefined;
  const calls = functionCalls(event);
  for (const call of calls) {
    if (ledger.made.has(call.id)) broken ??= `call id "${call.id}" is used twice; call ids are unique within a session`;
    ledger.made.add(call.id);
    // A call id made again after its answer (a forged log) comes last, as a new call would.
    if (ledger.changed.get(call.id) === null) ledger.changed.delete(call.id);
    const { seq, invocationId, author } = event;
    ledger.changed.set(call.id, { name: call.name, seq, invocationId, author });
  }
  const before = calls.find((call) => ledger.answered.has(call.id))?.id;
  ledger.turn = {
    modelEvent: event,
    calls: turnCalls(calls),
    ...(before !== undefined && { answered: before }),
    asked: new Map(),
    decided: new Map(),
    requests: [],
    broken: false,
  };
  return broken;
}

/** Answers close their calls; late ones are recorded, never used. */
function answerCalls(ledger: CallLedger, event: AgentEvent): string | undefined {
  let broken: string | undefined;
  const turn = ledger.turn;
  for (const response of functionResponses(event)) {
    const { id } = response;
    if (!ledger.made.has(id)) broken ??= `it answers call "${id}", which no earlier event made`;
    if (event.late) continue;
    if (ledger.answered.has(id)) broken ??= `it answers call "${id}" a second time; a call is answered once`;
    ledger.answered.set(id, isInterruption(response) ? 'interrupted' : 'answered');
    if (openCall(ledger, id)) ledger.changed.set(id, null);
    if (turn?.calls.byId.has(id)) turn.answered ??= id;
  }
  return broken;
}

/** A decision counts for a call the turn asked about, once per request: the first one after it. */
function decide(
  ledger: CallLedger,
  { callId, granted, reason }: { callId: string; granted: boolean; reason?: string },
) {
  const turn = ledger.turn;
  const shown = turn?.asked.get(callId);
  if (turn && shown && !turn.decided.has(callId))
    turn.decided.set(callId, { granted, ...(reason !== undefined && { reason }), args: shown.args });
  // Decided: the call runs with its turn, once no call of the turn waits for a person (a crash from then on leaves it open).
  if (openCall(ledger, callId)?.waiting === 'approval') mark(ledger, callId, undefined);
}

/** A request asks about calls of its turn again: a decision before it no longer counts. */
function ask(ledger: CallLedger, event: AgentEvent, requested: readonly ApprovalRequest[]): string | undefined {
  const turn = ledger.turn;
  const problem = approvalRequestProblem(requested, turn?.calls, turn?.answered);
  if (turn) {
    // A request that breaks the rule leaves its turn asking nothing: no decision on it can run anything.
    if (problem) turn.broken = true;
    else
      for (const entry of requested) {
        turn.asked.set(entry.callId, entry);
        turn.decided.delete(entry.callId);
      }
    turn.requests.push(event);
    turn.pausedOn = event;
  }
  // The session record trusts the request as the runtime wrote it; a broken one is refused on import.
  for (const { callId } of requested) mark(ledger, callId, 'approval');
  return problem && `its request for approval cannot stand: ${problem}`;
}

/** Call `id`, if it is open after the fold. */
function openCall(ledger: CallLedger, id: string): OpenCall | undefined {
  const changed = ledger.changed.get(id);
  return changed === undefined ? own(ledger.since, id) : (changed ?? undefined);
}

/**
 * The open calls after the fold, as the session record keeps them: the
 * record it started from when nothing changed (so an event that names no
 * call costs nothing), else a copy with the changes.
 */
export function openCallsIn(ledger: CallLedger): OpenCalls {
  if (ledger.changed.size === 0) return ledger.since;
  // Without a prototype, so that no call id (an imported file's "__proto__") reaches one.
  const open = Object.assign(Object.create(null) as OpenCalls, ledger.since);
  for (const [id, call] of ledger.changed)
    if (call) open[id] = call;
    else delete open[id];
  return open;
}

/** The call `id` of a session record's open calls, if it waits for a long-running tool's result. */
export function longRunningCall(open: OpenCalls, id: string): OpenCall | undefined {
  const call = own(open, id);
  return call?.waiting === 'long-running' ? call : undefined;
}

/**
 * Whether each open call waits on purpose: for a person (its own decision,
 * or another call of its turn that is not decided yet) or for a
 * long-running tool's answer. One pass over the open calls.
 */
export function waitsOnPurpose(open: OpenCalls): (call: OpenCall) => boolean {
  const asking = new Set<number>();
  for (const call of Object.values(open)) if (call.waiting === 'approval') asking.add(call.seq);
  return (call) => call.waiting === 'long-running' || asking.has(call.seq);
}

/** The model event (seq) of the oldest turn that waits for a person, if any. */
export function oldestAskingTurn(open: OpenCalls): number | undefined {
  let oldest: number | undefined;
  for (const call of Object.values(open))
    if (call.waiting === 'approval' && call.seq < (oldest ?? Infinity)) oldest = call.seq;
  return oldest;
}

/** The turn the session is paused on, if any: its last request's, unless the turn was answered or moved on since. */
export function pausedTurn(ledger: CallLedger): (LedgerTurn & { pausedOn: AgentEvent }) | undefined {
  const turn = ledger.turn;
  return turn?.pausedOn && !turn.broken ? (turn as LedgerTurn & { pausedOn: AgentEvent }) : undefined;
}

/** Where call `id` is in its life; undefined when the ledger never saw it made or answered. */
export function callPhase(ledger: CallLedger, id: string): CallPhase | undefined {
  const open = openCall(ledger, id);
  if (!open) return ledger.answered.get(id);
  if (open.waiting === 'long-running') return 'long-running';
  if (open.waiting === 'approval') return 'awaiting-approval';
  const turn = ledger.turn;
  const decision = turn?.modelEvent.seq === open.seq ? turn.decided.get(id) : undefined;
  if (decision) return decision.granted ? 'approved' : 'rejected';
  return 'made';
}

/** Never what a prototype lends (a call id "__proto__" or "constructor"). */
function own(open: OpenCalls, id: string): OpenCall | undefined {
  return Object.hasOwn(open, id) ? open[id] : undefined;
}

function mark(ledger: CallLedger, id: string, waiting: OpenCall['waiting']): void {
  const call = openCall(ledger, id);
  if (!call || call.waiting === waiting) return;
  const { waiting: _was, ...rest } = call;
  ledger.changed.set(id, waiting ? { ...rest, waiting } : rest);
}
