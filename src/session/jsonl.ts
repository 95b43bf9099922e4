/**
 * Sessions as JSONL: the first line is the session's header, then one line
 * per event in order. Import checks every line before it writes anything
 * (its shape, and the rules every log keeps: log-rules.ts), then writes the
 * whole session in one transaction under a new id. A file may come from
 * anywhere: one that breaks a rule is refused whole, with the line that
 * breaks it, rather than imported with its calls answered "interrupted", so
 * that what is stored is exactly what the file says or nothing; but for one
 * event: decisions the file holds on calls that wait are never honoured,
 * and those calls are asked again (imported-approvals.ts). And for one field:
 * a model event's `raw`, the model's output as it generated it, is dropped.
 * The runtime replays raw unescaped, only so that the KV cache of a turn it
 * generated holds; a file's raw was generated nowhere here, and would put in
 * front of the model whatever it holds (turns the person never sees, template
 * markers). Without it the turn is written back from the parts the person is
 * shown, escaped like all text the model did not write.
 */
import { AgentError } from '../errors';
import { newId, typed, type AgentEvent } from './event';
import type { Session, SessionStore } from './store';
import { applyToLedger, newCallLedger, openCallsIn } from './call-ledger';
import { foldSessionState } from './state';
import { sessionNotFound } from './append-rules';
import { importedApprovals } from './imported-approvals';
import { logRules } from './log-rules';
import { writableEvent } from './writable-event';
import { MAX_DEPTH } from '../tools/plain-json';

const SESSION_FORMAT = 'inpage-agent/session@1';

/** The first line of an export: the session without its state (which the events' deltas rebuild). */
export type SessionHeader = Omit<Session, 'state' | 'lastSeq'> & {
  type: 'session';
  format: typeof SESSION_FORMAT;
  eventCount: number;
};

export async function exportSession(store: SessionStore, id: string): Promise<string> {
  const session = await store.get(id);
  if (!session) throw sessionNotFound(id);
  const events = await store.events(id);
  const header: SessionHeader = {
    type: 'session',
    format: SESSION_FORMAT,
    id: session.id,
    appName: session.appName,
    userId: session.userId,
    ...(session.title ? { title: session.title } : {}),
    createdAt: session.createdAt,
    updatedAt: session.updatedAt,
    eventCount: events.length,
  };
  return [header, ...events.map(writableEvent)].map((line) => JSON.stringify(line)).join('\n') + '\n';
}

export interface ImportOptions {
  onProgress?: (progress: { linesDone: number; linesTotal: number }) => void;
  /** The imported session's id; a new one when absent. */
  newId?: string;
}

const PROGRESS_EVERY = 500;

export async function importSession(store: SessionStore, jsonl: string, options: ImportOptions = {}): Promise<string> {
  if (typeof jsonl !== 'string')
    throw importError(0, "the input is not text; pass the JSONL file's contents as a string");
  // A byte order mark, as some editors save UTF-8, is not part of the header.
  const lines = jsonl.replace(/^\uFEFF/, '').split(/\r?\n/);
  while (lines.length && lines[lines.length - 1]!.trim() === '') lines.pop();
  const total = lines.length;
  if (total === 0) throw importError(0, 'the file is empty; expected a session header line and its events');
  const header = parseHeader(lines[0]!);
  const id = options.newId ?? newId('s');
  const events: AgentEvent[] = [];
  // One fold of the file: its rules as it is read, then what waits in it and what stays open.
  const ledger = newCallLedger();
  const rules = logRules(ledger);
  for (let i = 1; i < total; i++) {
    const event = parseEvent(lines[i]!, i + 1, events.length + 1, id);
    const broken = rules(event);
    if (broken) throw importError(i + 1, broken);
    events.push(event);
    if (i % PROGRESS_EVERY === 0) {
      options.onProgress?.({ linesDone: i, linesTotal: total });
      // Let the page breathe during a large import.
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  }
  if (header.eventCount !== undefined && header.eventCount !== events.length) {
    throw importError(
      1,
      `the header says ${header.eventCount} events but the file has ${events.length}; the file is cut short or was edited`,
    );
  }
  const approvals = importedApprovals(events, id, ledger);
  if (!approvals.ok) throw importError(approvals.seq + 1, approvals.reason);
  if (approvals.askAgain) {
    events.push(approvals.askAgain);
    applyToLedger(ledger, approvals.askAgain);
  }
  const last = events[events.length - 1];
  const session: Session = {
    id,
    appName: header.appName,
    userId: header.userId,
    ...(header.title ? { title: header.title } : {}),
    createdAt: header.createdAt,
    updatedAt: last?.timestamp ?? header.updatedAt,
    // Only session keys are imported; another app's or user's app:/user: keys stay in the events only.
    state: foldSessionState(events.map((event) => event.actions?.stateDelta)),
    lastSeq: events.length,
    openCalls: openCallsIn(ledger),
  };
  await store.put(session, events);
  options.onProgress?.({ linesDone: total, linesTotal: total });
  return id;
}

function parseHeader(line: string): SessionHeader & { eventCount?: number } {
  const value = parseLine(line, 1);
  if (!isObject(value) || value.type !== 'session')
    throw importError(
      1,
      'the first line must be the session header ({"type":"session",…}); is this an inpage-agent session export?',
    );
  if (value.format !== SESSION_FORMAT)
    throw importError(1, `unknown format ${JSON.stringify(value.format)}; this version reads ${SESSION_FORMAT}`);
  for (const key of ['appName', 'userId'] as const)
    if (typeof value[key] !== 'string') throw importError(1, `the header's "${key}" must be a string`);
  for (const key of ['createdAt', 'updatedAt'] as const)
    if (typeof value[key] !== 'number') throw importError(1, `the header's "${key}" must be a number`);
  const count = value.eventCount;
  if (count !== undefined && !(Number.isInteger(count) && (count as number) >= 0))
    throw importError(1, `the header's "eventCount" must be a whole number; got ${JSON.stringify(count)}`);
  return value as unknown as SessionHeader;
}

function parseEvent(line: string, lineNo: number, expectedSeq: number, sessionId: string): AgentEvent {
  const value = parseLine(line, lineNo);
  if (!isObject(value)) throw importError(lineNo, 'expected an event object');
  const fail = (reason: string) => importError(lineNo, reason);
  // Its values (arguments, results, state) nest as deep as a tool's result may, below the event's own few levels.
  if (deeperThan(value, MAX_DEPTH + EVENT_LEVELS))
    throw fail(
      `a value is nested more than ${MAX_DEPTH} levels deep, deeper than the runtime writes any (a tool's result may not be); the file was not written by it`,
    );
  if (typeof value.id !== 'string' || !value.id) throw fail('"id" must be a non-empty string');
  if (value.seq !== expectedSeq)
    throw fail(
      `"seq" is ${JSON.stringify(value.seq)} but ${expectedSeq} was expected (events must be complete and in order)`,
    );
  if (typeof value.author !== 'string') throw fail('"author" must be a string');
  if (typeof value.timestamp !== 'number') throw fail('"timestamp" must be a number');
  if (typeof value.invocationId !== 'string') throw fail('"invocationId" must be a string');
  if (value.partial) throw fail('partial (streamed) events are never stored, so they cannot be imported');
  if (value.content !== undefined) checkContent(value.content, fail);
  if (value.actions !== undefined && !isObject(value.actions)) throw fail('"actions" must be an object');
  if (isObject(value.actions) && value.actions.stateDelta !== undefined && !isObject(value.actions.stateDelta))
    throw fail('"actions.stateDelta" must be an object');
  if (isObject(value.actions)) checkApprovals(value.actions, fail);
  const { raw: _notOurs, ...event } = value as unknown as AgentEvent;
  return typed({ ...event, sessionId });
}

function checkContent(content: unknown, fail: (reason: string) => AgentError): void {
  if (!isObject(content)) throw fail('"content" must be an object');
  if (!['user', 'model', 'tool'].includes(content.role as string))
    throw fail(`"content.role" must be user, model or tool (got ${JSON.stringify(content.role)})`);
  if (!Array.isArray(content.parts)) throw fail('"content.parts" must be an array');
  content.parts.forEach((part, i) => {
    const ok =
      isObject(part) &&
      (typeof part.text === 'string' ||
        typeof part.reasoning === 'string' ||
        (isObject(part.functionCall) &&
          typeof part.functionCall.id === 'string' &&
          part.functionCall.id !== '' &&
          typeof part.functionCall.name === 'string') ||
        (isObject(part.functionResponse) &&
          typeof part.functionResponse.id === 'string' &&
          typeof part.functionResponse.name === 'string'));
    if (!ok)
      throw fail(
        `"content.parts[${i}]" must be {text}, {reasoning}, {functionCall:{id,name,args}} or {functionResponse:{id,name,response}}`,
      );
  });
}

function checkApprovals(actions: Record<string, unknown>, fail: (reason: string) => AgentError): void {
  const { approval, requestApproval } = actions as { approval?: unknown; requestApproval?: unknown };
  if (
    approval !== undefined &&
    !(isObject(approval) && typeof approval.callId === 'string' && typeof approval.granted === 'boolean')
  )
    throw fail('"actions.approval" must be { callId, granted }');
  if (
    requestApproval !== undefined &&
    !(
      Array.isArray(requestApproval) &&
      requestApproval.every(
        (asked) => isObject(asked) && typeof asked.callId === 'string' && typeof asked.name === 'string',
      )
    )
  )
    throw fail('"actions.requestApproval" must be an array of { callId, name, args }');
}

/** The levels an event puts above a value: content, parts, the part, functionCall, args. */
const EVENT_LEVELS = 5;

/** Whether a parsed JSON value nests deeper than `limit`; one walk with a stack of its own (no recursion to overflow). */
function deeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [item, depth] = stack.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    if (depth >= limit) return true;
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return false;
}

function parseLine(line: string, lineNo: number): unknown {
  try {
    return JSON.parse(line);
  } catch (error) {
    throw importError(lineNo, `not valid JSON (${(error as Error).message})`);
  }
}

function isObject(value: unknown): value is Record<string, unknown> & { [key: string]: any } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function importError(line: number, reason: string): AgentError {
  const where = line > 0 ? `line ${line}: ` : '';
  return new AgentError('import-invalid', `Nothing was imported. ${where}${reason}.`, { details: { line, reason } });
}
