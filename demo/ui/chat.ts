// The conversation, drawn from events: the visitor's messages, the model's streamed answers (its
// reasoning folded away), one card per tool call (shown as soon as the model writes the tool's name),
// and errors in plain words. Model and tool text only ever goes in as text (textContent).
import type { AgentEvent } from '../../src/index';
import { asksFirst } from '../app/page-tools';
import { friendlyError } from './friendly-error';
import { askInCard, createCard, formatMs, offerAgain, setCardResult, setCardState } from './tool-card';
import { follow, pin } from './follow';

export interface ChatHooks {
  /** Asks the agent again, as if the visitor had typed it. */
  ask(text: string): void;
}

const log = () => document.querySelector<HTMLOListElement>('#log')!;
let hooks: ChatHooks = { ask: () => undefined };
/** The model message being streamed, per invocation. */
const streaming = new Map<string, HTMLLIElement>();
/** What the visitor asked, per invocation, for Retry and Ask again. */
const asked = new Map<string, string>();
/** Cards of calls the model is still writing, per invocation, in order; they have no call id yet. */
const writing = new Map<string, HTMLLIElement[]>();
/** Model steps recorded, per invocation. */
const modelSteps = new Map<string, number>();

export function setChatHooks(next: ChatHooks): void {
  hooks = next;
}

export function clearChat(): void {
  // A message the visitor sent while the agent (re)started stays: it runs once the agent is up.
  log().replaceChildren(...log().querySelectorAll('li.msg.user.pending, li.msg.user.unsent'));
  streaming.clear();
  asked.clear();
  writing.clear();
  modelSteps.clear();
  pin();
}

/** After a session's history is drawn: a message still waiting to be sent goes below it. */
export function keepPendingLast(): void {
  log().append(...log().querySelectorAll('li.msg.user.pending, li.msg.user.unsent'));
}

/** Shows a message at once, while the agent gets ready; the run's own event of it replaces it. */
export function showPending(text: string): HTMLLIElement {
  const item = document.createElement('li');
  item.className = 'msg user pending';
  item.textContent = text;
  return add(item);
}

/** A message that could not be sent stays where the visitor wrote it, with the reason and a way to try again. */
export function showUnsent(item: HTMLLIElement, reason: string, retry: () => void): void {
  item.classList.replace('pending', 'unsent');
  const why = document.createElement('p');
  why.className = 'unsent-reason';
  why.textContent = reason;
  const again = button('Try again', 'Send this again', () => {
    item.remove();
    retry();
  });
  item.append(why, again);
  follow();
}

export function isChatEmpty(): boolean {
  return log().children.length === 0;
}

function add(item: HTMLLIElement): HTMLLIElement {
  log().append(item);
  follow();
  return item;
}

function button(text: string, label: string, onClick: () => void): HTMLButtonElement {
  const node = document.createElement('button');
  node.type = 'button';
  node.className = 'action';
  node.textContent = text;
  node.setAttribute('aria-label', label);
  node.addEventListener('click', onClick);
  return node;
}

function modelMessage(invocationId: string, eventId?: string): HTMLLIElement {
  let item = streaming.get(invocationId);
  if (!item) {
    item = document.createElement('li');
    item.className = 'msg model';
    const reasoning = document.createElement('details');
    reasoning.className = 'reasoning';
    reasoning.hidden = true;
    const summary = document.createElement('summary');
    summary.textContent = 'Reasoning';
    reasoning.append(summary, document.createElement('p'));
    const text = document.createElement('div');
    text.className = 'text';
    item.append(reasoning, text);
    streaming.set(invocationId, item);
    add(item);
  }
  if (eventId) item.dataset.eventId = eventId;
  return item;
}

function appendReasoning(item: HTMLElement, text: string, replace = false): void {
  const details = item.querySelector<HTMLDetailsElement>('.reasoning')!;
  details.hidden = false;
  const body = details.querySelector('p')!;
  body.textContent = replace ? text : body.textContent + text;
}

function withActions(item: HTMLLIElement, invocationId: string): void {
  const text = item.querySelector('.text')!.textContent ?? '';
  const actions = document.createElement('div');
  actions.className = 'msg-actions';
  const copy = button('Copy', 'Copy this answer', async () => {
    await navigator.clipboard?.writeText(text).catch(() => undefined);
    copy.textContent = 'Copied';
    setTimeout(() => (copy.textContent = 'Copy'), 1500);
  });
  actions.append(copy);
  const question = asked.get(invocationId);
  if (question) actions.append(button('Retry', 'Ask this again', () => hooks.ask(question)));
  item.querySelector('.msg-actions')?.remove();
  item.append(actions);
}

function cardFor(callId: string, name = 'tool', args: unknown = {}): HTMLLIElement {
  const found = log().querySelector<HTMLLIElement>(`li.card[data-call-id="${CSS.escape(callId)}"]`);
  return found ?? add(createCard(callId, name, args));
}

/** Shows the card of a call that waits for approval, with Allow / Don't allow in it. */
export function askInline(call: { callId: string; name: string; args: unknown }, focus: boolean): Promise<boolean> {
  const card = callCard({ id: call.callId, name: call.name, args: call.args });
  follow();
  return askInCard(card, focus);
}

export function showEvent(event: AgentEvent): void {
  const parts = event.content?.parts ?? [];
  const role = event.content?.role;
  if (event.partial) {
    if (event.toolCallStart) showCallStart(event.invocationId, event.toolCallStart.name);
    for (const part of parts) {
      if ('text' in part) modelMessage(event.invocationId).querySelector('.text')!.append(part.text);
      if ('reasoning' in part) appendReasoning(modelMessage(event.invocationId), part.reasoning);
    }
    follow();
    return;
  }
  if (role === 'user') {
    const text = parts.map((part) => ('text' in part ? part.text : '')).join('');
    asked.set(event.invocationId, text);
    const item = document.createElement('li');
    item.className = 'msg user';
    item.dataset.eventId = event.id;
    item.textContent = text;
    add(item);
  }
  if (role === 'model') showModelEvent(event);
  if (role === 'tool') showToolEvent(event);
  const approval = event.actions?.approval;
  if (approval) {
    const card = cardFor(approval.callId);
    card.dataset.resultEventId ??= event.id;
    setCardState(
      card,
      approval.granted ? 'running' : 'denied',
      approval.granted ? 'Allowed.' : 'You did not allow it.',
    );
  }
  for (const call of event.actions?.requestApproval ?? [])
    setCardState(cardFor(call.callId, call.name, call.args), 'approval');
  if (event.error && event.endReason !== 'answer') showError(event);
  if (event.endReason) {
    const item = streaming.get(event.invocationId);
    if (item && event.endReason === 'aborted') item.classList.add('stopped');
    streaming.delete(event.invocationId);
    // A call still being written when the run ended was never made.
    for (const card of writing.get(event.invocationId) ?? []) card.remove();
    writing.delete(event.invocationId);
  }
}

/** The model has written a tool's name: its card shows now, while it writes the arguments. */
function showCallStart(invocationId: string, name: string): void {
  const card = createCard('', name, undefined);
  setCardState(card, 'writing');
  card.querySelector('.card-args')!.textContent = '…';
  const cards = writing.get(invocationId) ?? [];
  cards.push(card);
  writing.set(invocationId, cards);
  add(card);
}

/**
 * The call's card: the one it already has (an approval may ask before its model event is drawn), else the
 * one shown while the model wrote it, now with its id and arguments, else a new one.
 */
function callCard(call: { id: string; name: string; args: unknown }, invocationId?: string): HTMLLIElement {
  const existing = log().querySelector<HTMLLIElement>(`li.card[data-call-id="${CSS.escape(call.id)}"]`);
  if (existing) return existing;
  const owner =
    invocationId ?? [...writing].find(([, cards]) => cards.some((card) => card.dataset.tool === call.name))?.[0];
  const drafts = (owner && writing.get(owner)) || [];
  const at = drafts.findIndex((card) => card.dataset.tool === call.name);
  const draft = at === -1 ? undefined : drafts.splice(at, 1)[0];
  if (!draft) return cardFor(call.id, call.name, call.args);
  draft.dataset.callId = call.id;
  draft.querySelector('.card-args')!.textContent = JSON.stringify(call.args, null, 2);
  setCardState(draft, 'running');
  return draft;
}

function showModelEvent(event: AgentEvent): void {
  const parts = event.content!.parts;
  const text = parts.map((part) => ('text' in part ? part.text : '')).join('');
  const reasoning = parts.map((part) => ('reasoning' in part ? part.reasoning : '')).join('');
  const calls = parts.flatMap((part) => ('functionCall' in part ? [part.functionCall] : []));
  if (text || reasoning || streaming.has(event.invocationId)) {
    const item = modelMessage(event.invocationId, event.id);
    item.querySelector('.text')!.textContent = text;
    if (reasoning) appendReasoning(item, reasoning, true);
    if (text) withActions(item, event.invocationId);
    else if (!reasoning) item.remove();
    // Reasoning before tool calls, with no words of its own: a quiet line, not a bubble.
    item.classList.toggle('thought', !text);
  }
  // The next text of this run is a new message, below the cards.
  streaming.delete(event.invocationId);
  modelSteps.set(event.invocationId, (modelSteps.get(event.invocationId) ?? 0) + 1);
  for (const call of calls) callCard(call, event.invocationId).dataset.eventId = event.id;
  // Cards of calls that could not be read: the model is told, and no call was made.
  for (const card of writing.get(event.invocationId) ?? []) card.remove();
  writing.delete(event.invocationId);
}

function showToolEvent(event: AgentEvent): void {
  for (const part of event.content!.parts) {
    if (!('functionResponse' in part)) continue;
    const { id, name, response, error } = part.functionResponse;
    const card = cardFor(id, name);
    card.dataset.resultEventId = event.id;
    const ms = event.toolTimings?.[id];
    if (!error) {
      setCardState(card, 'done');
      setCardResult(card, event.artifacts?.[id] ?? response, ms);
    } else if (/rejected|not allow/i.test(error)) {
      setCardState(card, 'denied', 'You did not allow it, so it did not run.');
    } else if (error === 'interrupted') {
      const question = asked.get(event.invocationId);
      offerAgain(
        card,
        asksFirst(name)
          ? 'Not run: the page was reloaded while this waited for your answer.'
          : 'Stopped: the page was reloaded while this ran. It was not run again.',
        () => question && hooks.ask(question),
      );
    } else {
      setCardState(card, 'failed', error);
      if (ms !== undefined) card.querySelector('.card-ms')!.textContent = formatMs(ms);
    }
  }
  follow();
}

function showError(event: AgentEvent): void {
  const item = document.createElement('li');
  // A run held to one step (a base model's: maxSteps 1) ends at the step limit after its call: that is its
  // finish, not a failure, and a restored conversation says so too, whichever model is loaded now.
  if (event.error!.code === 'max-steps' && modelSteps.get(event.invocationId) === 1) {
    item.className = 'msg status-line';
    item.textContent = 'Done. This model runs one tool per request and does not reply.';
    add(item);
    return;
  }
  if (event.error!.code === 'aborted') {
    item.className = 'msg status-line';
    item.textContent = 'Stopped.';
    add(item);
    return;
  }
  const { text, details } = friendlyError(event.error!);
  item.className = 'msg error';
  item.dataset.eventId = event.id;
  const said = document.createElement('p');
  said.textContent = text;
  const more = document.createElement('details');
  const summary = document.createElement('summary');
  summary.textContent = 'Details';
  const code = document.createElement('pre');
  code.textContent = details;
  more.append(summary, code);
  item.append(said, more);
  const question = asked.get(event.invocationId);
  if (question) item.append(button('Try again', 'Ask this again', () => hooks.ask(question)));
  add(item);
}

/** Flashes the message or card that shows an event (from the timeline). */
export function revealEvent(eventId: string): boolean {
  const id = CSS.escape(eventId);
  const target = log().querySelector<HTMLElement>(`[data-event-id="${id}"], [data-result-event-id="${id}"]`);
  if (!target) return false;
  target.scrollIntoView({ block: 'center', behavior: 'smooth' });
  target.classList.remove('flash');
  void target.offsetWidth;
  target.classList.add('flash');
  return true;
}
