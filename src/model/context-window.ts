/**
 * Keeps a request inside the model's context window. The oldest turns go
 * first; what must stay: every system message, the newest user message, and
 * the newest unit of the conversation (the pending call and its responses).
 * An assistant message with tool calls and the tool messages that answer it
 * are one unit: dropping one without the other leaves the model a response
 * to a call it never made (or a call with no answer), which templates and
 * models handle badly.
 */
import type { ChatMessage } from './engine';

export interface FitOptions {
  /** Tokens available to these messages (the caller has taken out what it adds itself). */
  contextWindow: number;
  countTokens: (text: string) => number;
  /** Tokens kept free for the model's answer. */
  reserveForAnswer: number;
}

export interface FitResult {
  messages: ChatMessage[];
  /** How many messages were left out. */
  dropped: number;
  /** False when even the messages that must stay exceed the window. */
  fits: boolean;
  tokens: number;
}

/** Per-message template overhead (role markers, separators) in tokens. */
const MESSAGE_OVERHEAD = 4;

export function fitToContextWindow(messages: readonly ChatMessage[], options: FitOptions): FitResult {
  const budget = options.contextWindow - options.reserveForAnswer;
  const units = groupUnits(messages);
  const cost = (unit: Unit) =>
    unit.messages.reduce((sum, message) => sum + messageTokens(message, options.countTokens), 0);
  const costs = units.map(cost);
  let total = costs.reduce((a, b) => a + b, 0);

  const lastUser = findLastIndex(units, (unit) => unit.messages[0].role === 'user');
  const keep = (index: number) =>
    units[index].messages[0].role === 'system' || index === lastUser || index === units.length - 1;

  const droppedUnits = new Set<number>();
  for (let i = 0; i < units.length && total > budget; i++) {
    if (keep(i)) continue;
    droppedUnits.add(i);
    total -= costs[i];
  }
  const kept = units.filter((_, i) => !droppedUnits.has(i)).flatMap((unit) => unit.messages);
  return { messages: kept, dropped: messages.length - kept.length, fits: total <= budget, tokens: total };
}

export function messageTokens(message: ChatMessage, countTokens: (text: string) => number): number {
  let text = message.content;
  if (message.role === 'assistant' && message.toolCalls?.length)
    text += JSON.stringify(message.toolCalls.map((c) => ({ name: c.name, arguments: c.args })));
  if (message.role === 'tool') text += message.name;
  return countTokens(text) + MESSAGE_OVERHEAD;
}

interface Unit {
  messages: ChatMessage[];
}

/** Groups an assistant's tool calls with the tool messages that follow it. */
function groupUnits(messages: readonly ChatMessage[]): Unit[] {
  const units: Unit[] = [];
  for (const message of messages) {
    const previous = units[units.length - 1];
    const head = previous?.messages[0];
    if (message.role === 'tool' && head?.role === 'assistant' && head.toolCalls?.length)
      previous.messages.push(message);
    else units.push({ messages: [message] });
  }
  return units;
}

function findLastIndex<T>(items: readonly T[], predicate: (item: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (predicate(items[i])) return i;
  return -1;
}
