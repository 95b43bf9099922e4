// The session as a picture: one bar per event, placed by time and as long as it took,
// coloured by kind. Hover (or focus) a bar for the event's details.
import type { AgentEvent } from '../../src/index';

const COLORS: Record<string, string> = {
  user: '#3b6cf6',
  model: '#7a5af8',
  tool: '#1f9d6b',
  other: '#98a2b3',
  error: '#c4372c',
};

function kindOf(event: AgentEvent): string {
  if (event.error) return 'error';
  return event.content?.role ?? 'other';
}

export function drawTimeline(container: HTMLElement, events: AgentEvent[]): void {
  const stored = events.filter((event) => !event.partial).slice(-60);
  if (stored.length === 0) {
    container.textContent = 'No events yet.';
    return;
  }
  const start = stored[0]!.timing?.startedAt ?? stored[0]!.timestamp;
  const end = Math.max(
    ...stored.map((event) => (event.timing ? event.timing.startedAt + event.timing.ms : event.timestamp)),
  );
  const span = Math.max(1, end - start);
  const width = 600;
  const row = 14;
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', `0 0 ${width} ${stored.length * row + 4}`);
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', `Timeline of ${stored.length} events over ${span} ms`);
  stored.forEach((event, i) => {
    const begin = event.timing?.startedAt ?? event.timestamp;
    const x = ((begin - start) / span) * (width - 120);
    const w = Math.max(3, ((event.timing?.ms ?? 0) / span) * (width - 120));
    const bar = document.createElementNS(ns, 'rect');
    bar.setAttribute('x', String(x));
    bar.setAttribute('y', String(i * row + 2));
    bar.setAttribute('width', String(w));
    bar.setAttribute('height', String(row - 4));
    bar.setAttribute('rx', '2');
    bar.setAttribute('fill', COLORS[kindOf(event)]!);
    const title = document.createElementNS(ns, 'title');
    const calls =
      event.content?.parts.flatMap((part) => ('functionCall' in part ? [part.functionCall.name] : [])) ?? [];
    title.textContent = `#${event.seq} ${event.author} ${kindOf(event)}${calls.length ? ` → ${calls.join(', ')}` : ''}${event.timing ? ` · ${event.timing.ms.toFixed(1)} ms` : ''}${event.usage ? ` · ${event.usage.promptTokens}+${event.usage.completionTokens} tokens` : ''}${event.offeredTools ? ` · offered: ${event.offeredTools.join(', ')}` : ''}`;
    bar.append(title);
    const label = document.createElementNS(ns, 'text');
    label.setAttribute('x', String(Math.min(x + w + 4, width - 116)));
    label.setAttribute('y', String(i * row + row - 3));
    label.setAttribute('font-size', '9');
    label.setAttribute('fill', 'currentColor');
    label.textContent = `#${event.seq} ${calls[0] ?? kindOf(event)}`;
    svg.append(bar, label);
  });
  container.replaceChildren(svg);
}
