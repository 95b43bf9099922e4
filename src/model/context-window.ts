/**
 * Keeps a request inside the model's context window without shifting its
 * prefix every step. web-llm reuses its KV cache only when a request extends
 * the conversation it holds, so dropping the oldest turn at every step would
 * make every step prefill everything again. Instead, when the conversation
 * no longer fits, the oldest units go in one block, enough to get down to
 * `keepAfterTrim` of the budget, and the following steps extend that shorter
 * conversation until it is full again.
 *
 * Where the cut falls is a function of the messages alone: the rule is
 * replayed from the first message as if each unit had been a step, so the
 * next step (the same messages plus new ones) finds the same cut, and only
 * moves it when the budget is exceeded again. Linear in the messages.
 *
 * What always stays: every system message, the newest user message, and the
 * newest unit (the pending call and its responses). An assistant message with
 * tool calls and the tool messages that answer it are one unit: dropping one
 * without the other leaves the model a response to a call it never made (or
 * a call with no answer), which templates and models handle badly.
 */
import type { ChatMessage } from './engine';

/** A model's window in tokens when neither the page nor the model's own config says: what web-llm's prebuilt models default to. */
export const DEFAULT_CONTEXT_WINDOW = 4096;

export interface FitOptions {
  /** Tokens available to these messages (the caller has taken out what it adds itself). */
  contextWindow: number;
  countTokens: (text: string) => number;
  /** Tokens kept free for the model's answer. */
  reserveForAnswer: number;
  /** After a trim, the share of the budget the kept messages may use (default 0.5). */
  keepAfterTrim?: number;
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
  const target = Math.floor(budget * (options.keepAfterTrim ?? 0.5));
  const units = groupUnits(messages);
  const costs = units.map((unit) =>
    unit.messages.reduce((sum, message) => sum + messageTokens(message, options.countTokens), 0),
  );
  const isSystem = (i: number) => units[i].messages[0].role === 'system';

  let fixed = 0; // system units: always kept
  let window = 0; // the other units from `cut` to the current one
  let cut = 0;
  let lastUser = -1;
  const total = () => fixed + window + (lastUser >= 0 && lastUser < cut ? costs[lastUser] : 0);
  for (let i = 0; i < units.length; i++) {
    if (isSystem(i)) {
      fixed += costs[i];
      continue;
    }
    window += costs[i];
    if (units[i].messages[0].role === 'user') lastUser = i;
    if (total() <= budget) continue;
    for (; cut < i && total() > target; cut++) if (!isSystem(cut)) window -= costs[cut];
  }
  const kept = units.filter((_, i) => isSystem(i) || i >= cut || i === lastUser).flatMap((unit) => unit.messages);
  const tokens = total();
  return { messages: kept, dropped: messages.length - kept.length, fits: tokens <= budget, tokens };
}

/**
 * Each message's count, kept while its counter stays the same: a run's
 * history reaches here as the same message objects every step
 * (flow/history-to-messages.ts), so each is counted once, not once a step.
 */
const counted = new WeakMap<ChatMessage, { countTokens: (text: string) => number; tokens: number }>();

export function messageTokens(message: ChatMessage, countTokens: (text: string) => number): number {
  const known = counted.get(message);
  if (known?.countTokens === countTokens) return known.tokens;
  const tokens = countMessage(message, countTokens);
  counted.set(message, { countTokens, tokens });
  return tokens;
}

function countMessage(message: ChatMessage, countTokens: (text: string) => number): number {
  // An earlier model turn is sent as generated when its raw output was kept.
  const raw = message.role === 'assistant' ? message.raw : undefined;
  let text = raw ?? message.content;
  if (message.role === 'assistant' && raw === undefined && message.toolCalls?.length)
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
