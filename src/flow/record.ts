/**
 * The one way an event enters a session: stored first (numbered, state delta
 * applied in the same transaction), then added to the run's history and
 * streamed. A partial event is streamed only. Every writer (the loop, the
 * repair of open calls, approvals, late tool answers, notices) goes through
 * here, so the rules live in one place.
 */
import { AgentError } from '../errors';
import { newId, type AgentEvent, type NewEvent } from '../session/event';
import { isStorageFailure } from '../session/storage-failure';
import type { EventDraft, RecordTarget } from './types';

function complete(target: RecordTarget, draft: EventDraft): NewEvent {
  return {
    id: draft.id ?? newId('ev'),
    sessionId: target.sessionId,
    invocationId: draft.invocationId ?? target.invocationId,
    timestamp: draft.timestamp ?? Date.now(),
    ...draft,
  };
}

export async function record(target: RecordTarget, draft: EventDraft): Promise<AgentEvent> {
  return (await recordAll(target, [draft]))[0]!;
}

/**
 * Events that stand or fall together (a new message's answers to every call
 * it leaves behind), stored in one transaction: all of them, or none. One
 * write for thousands of decisions, rather than one each.
 */
export async function recordAll(target: RecordTarget, drafts: readonly EventDraft[]): Promise<AgentEvent[]> {
  if (drafts.length === 0) return [];
  const events = drafts.map((draft) => complete(target, draft));
  let stored: AgentEvent[];
  try {
    stored = await target.store.appendAll(target.sessionId, events);
  } catch (error) {
    throw withUnsaved(error, events.length === 1 ? events[0] : events);
  }
  for (const [i, event] of stored.entries()) {
    target.history.push(event);
    // The view includes temp: keys, which the store drops; the run keeps them for this invocation.
    const delta = drafts[i]!.actions?.stateDelta;
    if (delta) Object.assign(target.state, delta);
    target.emit(event);
  }
  return stored;
}

export function emitPartial(target: RecordTarget, draft: EventDraft): void {
  target.emit({ ...complete(target, draft), type: 'partial', seq: 0, partial: true });
}

/** A target for one event outside a run (a late tool answer, a notice): nothing reads its history. */
export function standalone(
  base: Pick<RecordTarget, 'sessionId' | 'store' | 'emit'>,
  invocationId: string,
): RecordTarget {
  return { ...base, invocationId, history: [], state: {} };
}

/** A storage failure carries the event (or events) it could not store, so what a run produced (a tool's result) is handed back, not lost. */
function withUnsaved(error: unknown, event: NewEvent | NewEvent[]): unknown {
  if (!isStorageFailure(error)) return error;
  return new AgentError(error.code, error.message, {
    cause: error,
    details: { ...(error.details as object | undefined), unsaved: event },
  });
}
