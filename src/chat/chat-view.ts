/**
 * The conversation, drawn from events: the visitor's messages, the model's
 * streamed answers (its reasoning folded away), one card per tool call
 * (shown as soon as the model writes the tool's name), approvals in the
 * call's card, and errors in plain words. Model and tool text only ever goes
 * in as text (textContent).
 */
import type { AgentEvent, ApprovalRequest } from '../index';
import type { ChatStrings } from './strings';
import { askInCard, createCard, formatMs, offerAgain, setCardResult, setCardState } from './tool-card';

export interface ChatViewHooks {
  strings(): ChatStrings;
  /** How a tool is shown, whether it asks the person before it runs, and whether what it does cannot be undone. */
  tool(name: string): { displayName: string; asksFirst: boolean; destructive: boolean };
  /** Asks the agent again, as if the visitor had typed it. */
  ask(text: string): void;
  /** A call that waits for the person in a paused run: their choice decides it (agent.approve / agent.reject). */
  decide(callId: string, granted: boolean): void;
  /** Says something to a screen reader (the live region). */
  announce(text: string): void;
  follow(): void;
}

export class ChatView {
  /** The model message being streamed, per invocation. */
  private readonly streaming = new Map<string, HTMLLIElement>();
  /** What the visitor asked, per invocation, for Retry and Ask again. */
  private readonly asked = new Map<string, string>();
  /** Cards of calls the model is still writing, per invocation, in order; they have no call id yet. */
  private readonly writing = new Map<string, HTMLLIElement[]>();
  /** Model steps recorded, per invocation. */
  private readonly modelSteps = new Map<string, number>();

  constructor(
    readonly log: HTMLOListElement,
    private readonly hooks: ChatViewHooks,
  ) {}

  private get strings(): ChatStrings {
    return this.hooks.strings();
  }

  /** Empties the conversation; a message still waiting to be sent (or not sent) stays. */
  clear(): void {
    this.log.replaceChildren(...this.log.querySelectorAll('li.msg.user.pending, li.msg.user.unsent'));
    this.streaming.clear();
    this.asked.clear();
    this.writing.clear();
    this.modelSteps.clear();
  }

  /** After a session's history is drawn: a message still waiting to be sent goes below it. */
  keepPendingLast(): void {
    this.log.append(...this.log.querySelectorAll('li.msg.user.pending, li.msg.user.unsent'));
  }

  get isEmpty(): boolean {
    return this.log.children.length === 0;
  }

  /** Shows a message at once, while the agent gets ready; the run's own event of it replaces it. */
  showPending(text: string): HTMLLIElement {
    const item = document.createElement('li');
    item.className = 'msg user pending';
    item.textContent = text;
    return this.add(item);
  }

  /** A message that could not be sent stays where the visitor wrote it, with the reason and a way to try again. */
  showUnsent(item: HTMLLIElement, reason: string, retry: () => void): void {
    item.classList.replace('pending', 'unsent');
    const why = document.createElement('p');
    why.className = 'unsent-reason';
    why.textContent = reason;
    const again = this.button(this.strings.tryAgain, this.strings.sendAgainLabel, () => {
      item.remove();
      retry();
    });
    item.append(why, again);
    this.hooks.announce(reason);
    this.hooks.follow();
  }

  /** Shows the card of a call that waits for approval, with Allow / Don't allow in it. */
  askInline(call: ApprovalRequest, focus: boolean): Promise<boolean> {
    const card = this.callCard({ id: call.callId, name: call.name, args: call.args });
    this.hooks.follow();
    this.hooks.announce(this.strings.approvalAnnouncement(this.hooks.tool(call.name).displayName));
    return askInCard(this.strings, card, { focus, destructive: this.hooks.tool(call.name).destructive });
  }

  /**
   * Draws an event. `live`: it happens now (a screen reader hears replies and questions). `replacing`: the
   * bubble shown at once for the message this event records, which it takes the place of, so that what an
   * approval asked meanwhile stays below the message.
   */
  showEvent(event: AgentEvent, { live = false, replacing }: { live?: boolean; replacing?: HTMLLIElement } = {}): void {
    const parts = event.content?.parts ?? [];
    if (event.partial) {
      if (event.toolCallStart) this.showCallStart(event.invocationId, event.toolCallStart.name);
      for (const part of parts) {
        if ('text' in part) this.modelMessage(event.invocationId).querySelector('.text')!.append(part.text);
        if ('reasoning' in part) appendReasoning(this.modelMessage(event.invocationId), part.reasoning);
      }
      this.hooks.follow();
      return;
    }
    if (event.type === 'user') {
      const text = parts.map((part) => ('text' in part ? part.text : '')).join('');
      this.asked.set(event.invocationId, text);
      const item = document.createElement('li');
      item.className = 'msg user';
      item.dataset.eventId = event.id;
      item.textContent = text;
      if (replacing?.isConnected) replacing.replaceWith(item);
      else this.add(item);
    }
    if (event.type === 'model') this.showModelEvent(event, live);
    if (event.type === 'tool') this.showToolEvent(event);
    const approval = event.actions?.approval;
    if (approval) {
      const card = this.cardFor(approval.callId);
      card.dataset.resultEventId ??= event.id;
      const { allowed, notAllowed } = this.strings;
      setCardState(
        this.strings,
        card,
        approval.granted ? 'running' : 'denied',
        approval.granted ? allowed : notAllowed,
      );
    }
    const waiting = event.actions?.requestApproval ?? [];
    for (const [i, call] of waiting.entries()) this.askPaused(call, live && i === 0);
    if (event.error && event.endReason !== 'answer') this.showError(event, live);
    if (event.endReason) {
      const item = this.streaming.get(event.invocationId);
      if (item && event.endReason === 'aborted') item.classList.add('stopped');
      this.streaming.delete(event.invocationId);
      // A call still being written when the run ended was never made.
      for (const card of this.writing.get(event.invocationId) ?? []) card.remove();
      this.writing.delete(event.invocationId);
    }
  }

  /** A run's error (or one of the page's), shown in plain words with the code under Details, and Try again. */
  showError(event: Pick<AgentEvent, 'id' | 'invocationId' | 'error'>, live = true): void {
    const error = event.error!;
    const item = document.createElement('li');
    const strings = this.strings;
    // A run held to one step (a base model's: maxSteps 1) ends at the step limit after its call: that is its
    // finish, not a failure, and a restored conversation says so too, whichever model is loaded now.
    if (error.code === 'max-steps' && this.modelSteps.get(event.invocationId) === 1) {
      item.className = 'msg status-line';
      item.textContent = strings.oneToolDone;
      this.add(item);
      return;
    }
    if (error.code === 'aborted') {
      item.className = 'msg status-line';
      item.textContent = strings.stopped;
      this.add(item);
      if (live) this.hooks.announce(strings.stopped);
      return;
    }
    const text = strings.errors[error.code] ?? strings.errors.unknown;
    item.className = 'msg error';
    item.dataset.eventId = event.id;
    const said = document.createElement('p');
    said.textContent = text;
    const more = document.createElement('details');
    const summary = document.createElement('summary');
    summary.textContent = strings.details;
    const code = document.createElement('pre');
    code.textContent = `${error.code}: ${error.message}`;
    more.append(summary, code);
    item.append(said, more);
    const question = this.asked.get(event.invocationId);
    if (question) item.append(this.button(strings.tryAgain, strings.retryLabel, () => this.hooks.ask(question)));
    this.add(item);
    if (live) this.hooks.announce(text);
  }

  /** Flashes the message or card that shows an event; false when the conversation does not show it. */
  reveal(eventId: string): boolean {
    const id = CSS.escape(eventId);
    const target = this.log.querySelector<HTMLElement>(`[data-event-id="${id}"], [data-result-event-id="${id}"]`);
    if (!target) return false;
    target.scrollIntoView({ block: 'center', behavior: 'smooth' });
    target.classList.remove('flash');
    void target.offsetWidth;
    target.classList.add('flash');
    return true;
  }

  private add(item: HTMLLIElement): HTMLLIElement {
    this.log.append(item);
    this.hooks.follow();
    return item;
  }

  private button(text: string, label: string, onClick: () => void): HTMLButtonElement {
    const node = document.createElement('button');
    node.type = 'button';
    node.className = 'action';
    node.textContent = text;
    node.setAttribute('aria-label', label);
    node.addEventListener('click', onClick);
    return node;
  }

  private modelMessage(invocationId: string, eventId?: string): HTMLLIElement {
    let item = this.streaming.get(invocationId);
    if (!item) {
      item = document.createElement('li');
      item.className = 'msg model';
      const reasoning = document.createElement('details');
      reasoning.className = 'reasoning';
      reasoning.hidden = true;
      const summary = document.createElement('summary');
      summary.textContent = this.strings.reasoning;
      reasoning.append(summary, document.createElement('p'));
      const text = document.createElement('div');
      text.className = 'text';
      item.append(reasoning, text);
      this.streaming.set(invocationId, item);
      this.add(item);
    }
    if (eventId) item.dataset.eventId = eventId;
    return item;
  }

  private withActions(item: HTMLLIElement, invocationId: string): void {
    const strings = this.strings;
    const text = item.querySelector('.text')!.textContent ?? '';
    const actions = document.createElement('div');
    actions.className = 'msg-actions';
    const copy = this.button(strings.copy, strings.copyLabel, async () => {
      await navigator.clipboard?.writeText(text).catch(() => undefined);
      copy.textContent = strings.copied;
      setTimeout(() => (copy.textContent = strings.copy), 1500);
    });
    actions.append(copy);
    const question = this.asked.get(invocationId);
    if (question) actions.append(this.button(strings.retry, strings.retryLabel, () => this.hooks.ask(question)));
    item.querySelector('.msg-actions')?.remove();
    item.append(actions);
  }

  /**
   * Asks a run's request again. The request is looked up when pressed: after a reload, the answer saying a call was
   * cut off can arrive while the chat still reads the stored events, and be drawn before the request it answers.
   */
  private askAgain(invocationId: string): void {
    const question = this.asked.get(invocationId);
    if (question) this.hooks.ask(question);
  }

  private cardFor(callId: string, name = 'tool', args: unknown = {}): HTMLLIElement {
    const found = this.log.querySelector<HTMLLIElement>(`li.card[data-call-id="${CSS.escape(callId)}"]`);
    return found ?? this.add(createCard(this.strings, { id: callId, name, displayName: this.nameOf(name), args }));
  }

  private nameOf(name: string): string {
    return this.hooks.tool(name).displayName;
  }

  /** A call that waits for the person in a paused run (no onApproval): its card asks, and the choice decides it. */
  private askPaused(call: ApprovalRequest, focus: boolean): void {
    const card = this.callCard({ id: call.callId, name: call.name, args: call.args });
    if (focus) this.hooks.announce(this.strings.approvalAnnouncement(this.nameOf(call.name)));
    const { destructive } = this.hooks.tool(call.name);
    void askInCard(this.strings, card, { focus, destructive }).then((granted) =>
      this.hooks.decide(call.callId, granted),
    );
  }

  /** The model has written a tool's name: its card shows now, while it writes the arguments. */
  private showCallStart(invocationId: string, name: string): void {
    const card = createCard(this.strings, { id: '', name, displayName: this.nameOf(name), args: undefined });
    setCardState(this.strings, card, 'writing');
    card.querySelector('.card-args')!.textContent = '…';
    const cards = this.writing.get(invocationId) ?? [];
    cards.push(card);
    this.writing.set(invocationId, cards);
    this.add(card);
  }

  /**
   * The call's card: the one it already has (an approval may ask before its model event is drawn), else the
   * one shown while the model wrote it, now with its id and arguments, else a new one.
   */
  private callCard(call: { id: string; name: string; args: unknown }, invocationId?: string): HTMLLIElement {
    const existing = this.log.querySelector<HTMLLIElement>(`li.card[data-call-id="${CSS.escape(call.id)}"]`);
    if (existing) return existing;
    const owner =
      invocationId ?? [...this.writing].find(([, cards]) => cards.some((card) => card.dataset.tool === call.name))?.[0];
    const drafts = (owner && this.writing.get(owner)) || [];
    const at = drafts.findIndex((card) => card.dataset.tool === call.name);
    const draft = at === -1 ? undefined : drafts.splice(at, 1)[0];
    if (!draft) return this.cardFor(call.id, call.name, call.args);
    draft.dataset.callId = call.id;
    draft.querySelector('.card-args')!.textContent = JSON.stringify(call.args, null, 2);
    setCardState(this.strings, draft, 'running');
    return draft;
  }

  private showModelEvent(event: AgentEvent & { type: 'model' }, live: boolean): void {
    const parts = event.content.parts;
    const text = parts.map((part) => ('text' in part ? part.text : '')).join('');
    const reasoning = parts.map((part) => ('reasoning' in part ? part.reasoning : '')).join('');
    const calls = parts.flatMap((part) => ('functionCall' in part ? [part.functionCall] : []));
    if (text || reasoning || this.streaming.has(event.invocationId)) {
      const item = this.modelMessage(event.invocationId, event.id);
      item.querySelector('.text')!.textContent = text;
      if (reasoning) appendReasoning(item, reasoning, true);
      if (text) this.withActions(item, event.invocationId);
      else if (!reasoning) item.remove();
      // Reasoning before tool calls, with no words of its own: a quiet line, not a bubble.
      item.classList.toggle('thought', !text);
      // The reply, once it is whole: a screen reader hears it once, not word by word.
      if (text && live) this.hooks.announce(text);
    }
    // The next text of this run is a new message, below the cards.
    this.streaming.delete(event.invocationId);
    this.modelSteps.set(event.invocationId, (this.modelSteps.get(event.invocationId) ?? 0) + 1);
    for (const call of calls) this.callCard(call, event.invocationId).dataset.eventId = event.id;
    // Cards of calls that could not be read: the model is told, and no call was made.
    for (const card of this.writing.get(event.invocationId) ?? []) card.remove();
    this.writing.delete(event.invocationId);
  }

  private showToolEvent(event: AgentEvent & { type: 'tool' }): void {
    const strings = this.strings;
    for (const part of event.content.parts) {
      if (!('functionResponse' in part)) continue;
      const { id, name, response, error, code } = part.functionResponse;
      const card = this.cardFor(id, name);
      card.dataset.resultEventId = event.id;
      const ms = event.toolTimings?.[id];
      if (error === undefined) {
        setCardState(strings, card, 'done');
        setCardResult(card, event.artifacts?.[id] ?? response, ms);
      } else if (code === 'tool-rejected' || /rejected|not allow/i.test(error)) {
        setCardState(strings, card, 'denied', strings.notAllowedNotRun);
      } else if (error === 'interrupted') {
        offerAgain(
          strings,
          card,
          this.hooks.tool(name).asksFirst ? strings.interruptedAsked : strings.interruptedRan,
          () => this.askAgain(event.invocationId),
        );
      } else {
        setCardState(strings, card, 'failed', error);
        if (ms !== undefined) card.querySelector('.card-ms')!.textContent = formatMs(ms);
      }
    }
    this.hooks.follow();
  }
}

function appendReasoning(item: HTMLElement, text: string, replace = false): void {
  const details = item.querySelector<HTMLDetailsElement>('.reasoning')!;
  details.hidden = false;
  const body = details.querySelector('p')!;
  body.textContent = replace ? text : body.textContent + text;
}
