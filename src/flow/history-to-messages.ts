/**
 * The session's events as the chat messages a model reads. Only what the
 * model should see: no partial or late events, no bare errors, no approvals.
 * A run's history only grows, so a run keeps what it converted
 * (ConvertedHistory) and each step converts the events added since.
 */
import type { AgentEvent, FunctionResponse } from '../session/event';
import { functionCalls, functionResponses, textOf } from '../session/parts';
import type { ChatMessage, ModelToolCall } from '../model/engine';
import { describeJsonProblem, jsonProblem } from '../tools/plain-json';
import type { ConvertedHistory } from './types';

export function convertedHistory(): ConvertedHistory {
  return { events: 0, messages: [], answered: new Set(), unanswered: new Map() };
}

export function historyToMessages(
  events: readonly AgentEvent[],
  converted: ConvertedHistory = convertedHistory(),
): readonly ChatMessage[] {
  for (let i = converted.events; i < events.length; i++) {
    const event = events[i]!;
    if (event.late) continue;
    for (const { id } of functionResponses(event)) {
      converted.answered.add(id);
      converted.unanswered.delete(id);
    }
    if (event.partial || !event.content) continue;
    const own = messagesOf(event);
    converted.messages.push(...own);
    if (event.content.role === 'model')
      for (const call of own[0]?.role === 'assistant' ? (own[0].toolCalls ?? []) : [])
        if (!converted.answered.has(call.id!))
          converted.unanswered.set(call.id!, { name: call.name, after: converted.messages.length });
  }
  converted.events = events.length;
  if (converted.unanswered.size === 0) return converted.messages;
  // A call with no answer anywhere (long-running, or waiting for approval) still needs one for the model to read the turn.
  // In the order the calls were made, which is the order of their places.
  const pending = [...converted.unanswered];
  const messages: ChatMessage[] = [];
  let next = 0;
  for (let i = 0; i <= converted.messages.length; i++) {
    for (; next < pending.length && pending[next]![1].after === i; next++) {
      const [id, { name }] = pending[next]!;
      messages.push({ role: 'tool', toolCallId: id, name, content: 'Pending: no result yet.' });
    }
    if (i < converted.messages.length) messages.push(converted.messages[i]!);
  }
  return messages;
}

/**
 * Each stored event's own messages, made once: every step replays the whole
 * history, and the same message objects let the window guard count each
 * message's tokens once (model/context-window.ts). Stored events never change.
 */
const converted = new WeakMap<AgentEvent, ChatMessage[]>();

function messagesOf(event: AgentEvent): ChatMessage[] {
  let messages = converted.get(event);
  if (!messages) converted.set(event, (messages = convert(event)));
  return messages;
}

function convert(event: AgentEvent): ChatMessage[] {
  const { role, parts } = event.content!;
  if (role === 'user') {
    const text = textOf(parts);
    return text ? [{ role: 'user', content: text }] : [];
  }
  if (role === 'model') {
    const toolCalls: ModelToolCall[] = functionCalls(event).map((call) => ({ ...call }));
    const text = textOf(parts);
    if (!text && toolCalls.length === 0) return [];
    return [
      {
        role: 'assistant',
        content: text,
        ...(toolCalls.length && { toolCalls }),
        ...(event.raw !== undefined && { raw: event.raw }),
      },
    ];
  }
  return functionResponses(event).map((response): ChatMessage => ({
    role: 'tool',
    toolCallId: response.id,
    name: response.name,
    content: responseText(response),
  }));
}

/**
 * What the model reads of a tool's answer: its error, or its response as
 * text. A stored response JSON cannot write within the result cap (kept by an
 * earlier version) is never written: the model reads that it was dropped
 * (start-run.ts tells the person).
 */
function responseText(response: FunctionResponse): string {
  if (response.error) return `Error: ${response.error}`;
  const value = response.response;
  if (typeof value === 'string') return value;
  const problem = jsonProblem(value, 'the result');
  if (problem)
    return `Error: this call's stored result cannot be read again (${describeJsonProblem(problem)}); it was dropped.`;
  return JSON.stringify(value) ?? 'null';
}
