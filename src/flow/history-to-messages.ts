/**
 * The session's events as the chat messages a model reads. Only what the
 * model should see: no partial or late events, no bare errors, no approvals.
 */
import type { AgentEvent, FunctionResponse, Part } from '../session/event';
import type { ChatMessage, ModelToolCall } from '../model/engine';
import { describeJsonProblem, jsonProblem } from '../tools/plain-json';

export function historyToMessages(events: readonly AgentEvent[]): ChatMessage[] {
  const answered = new Set<string>();
  for (const event of events) {
    if (event.late) continue;
    for (const part of event.content?.parts ?? [])
      if ('functionResponse' in part) answered.add(part.functionResponse.id);
  }
  const messages: ChatMessage[] = [];
  for (const event of events) {
    if (event.partial || event.late || !event.content) continue;
    const own = messagesOf(event);
    messages.push(...own);
    // A call with no answer anywhere (long-running, or waiting for approval) still needs one for the model to read the turn.
    if (event.content.role === 'model')
      for (const call of own[0]?.role === 'assistant' ? (own[0].toolCalls ?? []) : [])
        if (!answered.has(call.id!))
          messages.push({ role: 'tool', toolCallId: call.id!, name: call.name, content: 'Pending: no result yet.' });
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
    const toolCalls: ModelToolCall[] = [];
    for (const part of parts) if ('functionCall' in part) toolCalls.push({ ...part.functionCall });
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
  return parts.flatMap((part): ChatMessage[] =>
    'functionResponse' in part
      ? [
          {
            role: 'tool',
            toolCallId: part.functionResponse.id,
            name: part.functionResponse.name,
            content: responseText(part.functionResponse),
          },
        ]
      : [],
  );
}

function textOf(parts: Part[]): string {
  return parts.map((part) => ('text' in part ? part.text : '')).join('');
}

/**
 * What the model reads of a tool's answer: its error, or its response as
 * text. A stored response JSON cannot write within the result cap (kept by an
 * earlier version) is never written: the model reads that it was dropped
 * (start-run.ts tells the person).
 */
export function responseText(response: FunctionResponse): string {
  if (response.error) return `Error: ${response.error}`;
  const value = response.response;
  if (typeof value === 'string') return value;
  const problem = jsonProblem(value, 'the result');
  if (problem)
    return `Error: this call's stored result cannot be read again (${describeJsonProblem(problem)}); it was dropped.`;
  return JSON.stringify(value) ?? 'null';
}
