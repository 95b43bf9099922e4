/**
 * One card per tool call: the call and its result together, with its state
 * (being written by the model, running, waiting for the person, not allowed,
 * failed, done, not run after a reload), how long it took (counted while
 * the model writes it and while it runs, so a long wait still reads as
 * work), and the arguments and result on expand. Everything from the model
 * or a tool goes in as text.
 */
import type { ChatStrings } from './strings';

export type CardState = keyof ChatStrings['cardStates'];

function element<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

export function createCard(
  strings: ChatStrings,
  call: { id: string; name: string; displayName: string; args: unknown },
): HTMLLIElement {
  const card = element('li', 'card');
  card.dataset.callId = call.id;
  card.dataset.tool = call.name;
  const head = element('div', 'card-head');
  head.append(
    element('span', 'card-icon'),
    element('span', 'card-name', call.displayName),
    element('span', 'card-state'),
    element('span', 'card-ms'),
  );
  const details = element('details', 'card-details');
  details.append(element('summary', undefined, strings.argumentsAndResult));
  const argsBlock = element('pre', 'card-args', JSON.stringify(call.args, null, 2));
  argsBlock.setAttribute('aria-label', strings.argumentsLabel);
  const result = element('pre', 'card-result');
  result.setAttribute('aria-label', strings.resultLabel);
  result.hidden = true;
  details.append(argsBlock, result);
  card.append(head, details, element('div', 'card-note'), element('div', 'card-actions'));
  setCardState(strings, card, 'running');
  return card;
}

/** The states a card counts the seconds of, from when the state began: the model writes, the tool runs. */
const COUNTED: readonly CardState[] = ['writing', 'running'];
const counters = new WeakMap<HTMLElement, ReturnType<typeof setInterval>>();

/** Counts the seconds on a card from now, or stops counting (and the count goes: it was of the state before). */
function count(card: HTMLElement, counting: boolean): void {
  const shown = card.querySelector('.card-ms')!;
  if (counters.has(card)) {
    clearInterval(counters.get(card));
    counters.delete(card);
    shown.textContent = '';
  }
  if (!counting) return;
  const since = performance.now();
  const timer = setInterval(() => {
    // A card taken out of the conversation (a call never made) stops counting.
    if (!card.isConnected) return count(card, false);
    shown.textContent = `${Math.floor((performance.now() - since) / 1000)} s`;
  }, 1000);
  counters.set(card, timer);
}

export function setCardState(strings: ChatStrings, card: HTMLElement, state: CardState, note = ''): void {
  if (card.dataset.state !== state) count(card, COUNTED.includes(state));
  card.dataset.state = state;
  const name = card.querySelector('.card-name')!.textContent;
  card.querySelector('.card-state')!.textContent = strings.cardStates[state];
  card.setAttribute('aria-label', `${name}: ${strings.cardStates[state]}`);
  card.querySelector('.card-note')!.textContent = note;
  if (state !== 'approval' && state !== 'interrupted') card.querySelector('.card-actions')!.replaceChildren();
}

export function setCardResult(card: HTMLElement, result: unknown, ms?: number): void {
  count(card, false);
  const block = card.querySelector<HTMLElement>('.card-result')!;
  block.hidden = false;
  block.textContent = typeof result === 'string' ? result : JSON.stringify(result, null, 2);
  if (ms !== undefined) card.querySelector('.card-ms')!.textContent = formatMs(ms);
}

export function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.max(1, Math.round(ms))} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/**
 * Allow / Don't allow in the card, with what the call would be given in view; resolves with the choice. Focus
 * goes to the safe choice when asked to.
 */
export function askInCard(
  strings: ChatStrings,
  card: HTMLElement,
  { focus, destructive }: { focus: boolean; destructive: boolean },
): Promise<boolean> {
  setCardState(strings, card, 'approval', destructive ? strings.approvalNote : strings.approvalQuestion);
  card.querySelector<HTMLDetailsElement>('.card-details')!.open = true;
  const actions = card.querySelector('.card-actions')!;
  const allow = element('button', 'primary', strings.allow);
  const deny = element('button', undefined, strings.deny);
  allow.type = deny.type = 'button';
  allow.dataset.choice = 'allow';
  deny.dataset.choice = 'deny';
  actions.replaceChildren(deny, allow);
  if (focus) deny.focus({ preventScroll: true });
  return new Promise((resolve) => {
    allow.addEventListener('click', () => resolve(true), { once: true });
    deny.addEventListener('click', () => resolve(false), { once: true });
  });
}

/** After a reload cut a call off: say so, and offer to ask again. */
export function offerAgain(strings: ChatStrings, card: HTMLElement, note: string, again: () => void): void {
  setCardState(strings, card, 'interrupted', note);
  const button = element('button', undefined, strings.askAgain);
  button.type = 'button';
  button.addEventListener('click', again, { once: true });
  card.querySelector('.card-actions')!.replaceChildren(button);
}
