/**
 * The one way the loop produces an event: stored first (numbered, state delta
 * applied in the same transaction), then added to the in-memory history and
 * streamed. A partial event is streamed only.
 */
import { newId, type AgentEvent, type NewEvent } from '../session/event';
import type { Invocation } from './types';

export type EventDraft = Omit<NewEvent, 'id' | 'sessionId' | 'invocationId' | 'timestamp'> &
  Partial<Pick<NewEvent, 'id' | 'timestamp'>>;

function complete(inv: Invocation, draft: EventDraft): NewEvent {
  return {
    id: draft.id ?? newId('ev'),
    sessionId: inv.sessionId,
    invocationId: inv.invocationId,
    timestamp: draft.timestamp ?? Date.now(),
    ...draft,
  };
}

export async function record(inv: Invocation, draft: EventDraft): Promise<AgentEvent> {
  const stored = await inv.store.append(inv.sessionId, complete(inv, draft));
  inv.history.push(stored);
  // The view includes temp: keys, which the store drops; the loop keeps them for this invocation.
  if (stored.actions?.stateDelta || draft.actions?.stateDelta) Object.assign(inv.state, draft.actions?.stateDelta);
  inv.emit(stored);
  return stored;
}

export function emitPartial(inv: Invocation, draft: EventDraft): void {
  inv.emit({ ...complete(inv, draft), seq: 0, partial: true });
}
