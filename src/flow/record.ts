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
import type { RecordTarget } from './types';

export type EventDraft = Omit<NewEvent, 'id' | 'sessionId' | 'invocationId' | 'timestamp'> &
  Partial<Pick<NewEvent, 'id' | 'timestamp' | 'invocationId'>>;

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
  const event = complete(target, draft);
  let stored: AgentEvent;
  try {
    stored = await target.store.append(target.sessionId, event);
  } catch (error) {
    throw withUnsaved(error, event);
  }
  target.history.push(stored);
  // The view includes temp: keys, which the store drops; the run keeps them for this invocation.
  if (draft.actions?.stateDelta) Object.assign(target.state, draft.actions.stateDelta);
  target.emit(stored);
  return stored;
}

export function emitPartial(target: RecordTarget, draft: EventDraft): void {
  target.emit({ ...complete(target, draft), seq: 0, partial: true });
}

/** A target for one event outside a run (a late tool answer, a notice): nothing reads its history. */
export function standalone(
  base: Pick<RecordTarget, 'sessionId' | 'store' | 'emit'>,
  invocationId: string,
): RecordTarget {
  return { ...base, invocationId, history: [], state: {} };
}

/** A storage failure carries the event it could not store, so what a run produced (a tool's result) is handed back, not lost. */
function withUnsaved(error: unknown, event: NewEvent): unknown {
  if (!isStorageFailure(error)) return error;
  return new AgentError(error.code, error.message, {
    cause: error,
    details: { ...(error.details as object | undefined), unsaved: event },
  });
}
