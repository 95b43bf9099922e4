// The session as a timeline: one row per stored event, its bar placed by time and as long as it
// took, coloured by kind, with a label in full-size text. Selecting a row shows the event and
// points at the message or card it made in the chat.
import type { AgentEvent } from '../../src/index';

export function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.max(1, Math.round(ms))} ms` : `${(ms / 1000).toFixed(1)} s`;
}

export interface TimelineHooks {
  /** Points at the event in the chat; false when the chat does not show it. */
  reveal(eventId: string): boolean;
}

function kindOf(event: AgentEvent): string {
  if (event.error && event.error.code !== 'aborted') return 'error';
  if (event.actions?.approval) return 'approval';
  return event.content?.role ?? 'other';
}

function describe(event: AgentEvent): string {
  const parts = event.content?.parts ?? [];
  const calls = parts.flatMap((part) => ('functionCall' in part ? [part.functionCall.name] : []));
  const answers = parts.flatMap((part) =>
    'functionResponse' in part ? [`${part.functionResponse.name}${part.functionResponse.error ? ' (error)' : ''}`] : [],
  );
  if (event.actions?.approval) return event.actions.approval.granted ? 'allowed' : 'not allowed';
  if (calls.length) return `calls ${calls.join(', ')}`;
  if (answers.length) return `result of ${answers.join(', ')}`;
  if (event.error) return event.error.code;
  if (event.content?.role === 'user') return 'you';
  if (event.content?.role === 'model') return 'answer';
  return event.endReason ?? 'event';
}

function usesTool(event: AgentEvent, tool: string): boolean {
  return (event.content?.parts ?? []).some(
    (part) =>
      ('functionCall' in part && part.functionCall.name === tool) ||
      ('functionResponse' in part && part.functionResponse.name === tool),
  );
}

export function drawTimeline(container: HTMLElement, all: AgentEvent[], hooks: TimelineHooks, tool?: string): void {
  const events = all.filter((event) => !event.partial && (!tool || usesTool(event, tool))).slice(-80);
  if (events.length === 0) {
    container.textContent = tool ? `No calls of ${tool} in this session yet.` : 'No events yet: say something.';
    return;
  }
  const startOf = (event: AgentEvent) => event.timing?.startedAt ?? event.timestamp;
  const start = Math.min(...events.map(startOf));
  const end = Math.max(...events.map((event) => startOf(event) + (event.timing?.ms ?? 0)));
  const span = Math.max(1, end - start);
  const list = document.createElement('ol');
  list.className = 'timeline-rows';
  list.setAttribute('aria-label', `${events.length} events over ${formatMs(span)}`);
  for (const event of events) {
    const row = document.createElement('li');
    const select = document.createElement('button');
    select.type = 'button';
    select.className = `timeline-row kind-${kindOf(event)}`;
    select.dataset.eventId = event.id;
    const label = document.createElement('span');
    label.className = 'timeline-label';
    label.textContent = `#${event.seq} ${describe(event)}`;
    const track = document.createElement('span');
    track.className = 'timeline-track';
    const bar = document.createElement('span');
    bar.className = 'timeline-bar';
    bar.style.left = `${((startOf(event) - start) / span) * 100}%`;
    bar.style.width = `max(4px, ${((event.timing?.ms ?? 0) / span) * 100}%)`;
    track.append(bar);
    const ms = document.createElement('span');
    ms.className = 'timeline-ms';
    ms.textContent = event.timing ? formatMs(event.timing.ms) : '';
    select.append(label, track, ms);
    select.setAttribute('aria-label', `${label.textContent}${event.timing ? `, ${formatMs(event.timing.ms)}` : ''}`);
    select.addEventListener('click', () => showDetail(event, hooks));
    row.append(select);
    list.append(row);
  }
  container.replaceChildren(list);
}

function showDetail(event: AgentEvent, hooks: TimelineHooks): void {
  const detail = document.querySelector<HTMLElement>('#event-detail')!;
  detail.hidden = false;
  const { id, seq, author, invocationId, content, actions, timing, usage, error, endReason, offeredTools } = event;
  detail.textContent = JSON.stringify(
    { seq, id, author, invocationId, content, actions, timing, usage, error, endReason, offeredTools },
    (key, value) => (typeof value === 'number' && !Number.isInteger(value) ? Math.round(value * 10) / 10 : value),
    2,
  );
  for (const row of document.querySelectorAll('.timeline-row'))
    row.toggleAttribute('aria-current', (row as HTMLElement).dataset.eventId === event.id);
  hooks.reveal(event.id);
}
