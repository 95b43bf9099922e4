// The conversation, drawn from events. Model and tool text only ever goes in as text (textContent).
import type { AgentEvent } from '../../src/index';

const log = () => document.querySelector<HTMLOListElement>('#log')!;

function bubble(kind: string, text = ''): HTMLLIElement {
  const item = document.createElement('li');
  item.className = kind;
  item.textContent = text;
  log().append(item);
  item.scrollIntoView?.({ block: 'nearest' });
  return item;
}

let streaming: HTMLLIElement | undefined;

export function clearChat(): void {
  log().replaceChildren();
  streaming = undefined;
}

export function showEvent(event: AgentEvent): void {
  const parts = event.content?.parts ?? [];
  if (event.partial) {
    for (const part of parts) if ('text' in part) (streaming ??= bubble('model')).textContent += part.text;
    return;
  }
  const text = parts.map((part) => ('text' in part ? part.text : '')).join('');
  if (event.content?.role === 'user') bubble('user', text);
  if (event.content?.role === 'model') {
    const target = streaming ?? (text ? bubble('model') : undefined);
    if (target) target.textContent = text;
    streaming = undefined;
    for (const part of parts) {
      if (!('functionCall' in part)) continue;
      const details = document.createElement('details');
      const summary = document.createElement('summary');
      summary.textContent = `Calls ${part.functionCall.name}`;
      const args = document.createElement('pre');
      args.textContent = JSON.stringify(part.functionCall.args, null, 2);
      details.append(summary, args);
      bubble('model tool-call').append(details);
    }
  }
  if (event.content?.role === 'tool') {
    for (const part of parts) {
      if (!('functionResponse' in part)) continue;
      const { name, response, error } = part.functionResponse;
      const details = document.createElement('details');
      const summary = document.createElement('summary');
      summary.textContent = error ? `${name} failed` : `${name} answered`;
      const body = document.createElement('pre');
      body.textContent = error ?? (typeof response === 'string' ? response : JSON.stringify(response, null, 2));
      details.append(summary, body);
      bubble(error ? 'model error' : 'model tool-result').append(details);
    }
  }
  if (event.actions?.requestApproval)
    bubble('model', `Waiting for your approval: ${event.actions.requestApproval.map((call) => call.name).join(', ')}`);
  if (event.error && event.endReason !== 'answer') bubble('error', `${event.error.code}: ${event.error.message}`);
}
