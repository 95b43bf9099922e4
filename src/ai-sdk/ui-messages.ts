/**
 * A stored session as useChat's messages, for a page that opens again: each
 * person's message, then one assistant message for everything the agent did
 * until the next one (its id is the run's invocation id, as the live stream
 * gives it). The assistant parts are built by the AI SDK's own reader from the
 * chunks a live run would have streamed, so a restored chat and a live one
 * have the same shape.
 */
import { readUIMessageStream, type UIMessage, type UIMessageChunk } from 'ai';
import type { Agent, AgentEvent } from '../index';
import { EventChunks } from './event-chunks';

export interface Turn {
  /** The assistant message's id: the invocation of the person's message. */
  messageId: string;
  /** What followed the person's message, in order. */
  events: AgentEvent[];
}

/** The session's messages, ready for useChat({ messages }). */
export async function loadUIMessages(agent: Agent): Promise<UIMessage[]> {
  return toUIMessages((await agent.sessions.get(agent.sessionId))?.events ?? []);
}

export async function toUIMessages(events: readonly AgentEvent[]): Promise<UIMessage[]> {
  const messages: UIMessage[] = [];
  for (const { user, turn } of turns(events)) {
    messages.push({ id: user.id, role: 'user', parts: [{ type: 'text', text: textOf(user) }] });
    const assistant = await assistantMessage(turn);
    if (assistant) messages.push(assistant);
  }
  return messages;
}

/** The last person's message's turn: what a resumed run's message replays. */
export function lastTurn(events: readonly AgentEvent[]): Turn | undefined {
  return turns(events).at(-1)?.turn;
}

function turns(events: readonly AgentEvent[]): { user: AgentEvent; turn: Turn }[] {
  const found: { user: AgentEvent; turn: Turn }[] = [];
  for (const event of events) {
    if (event.partial || event.late) continue;
    if (event.content?.role === 'user')
      found.push({ user: event, turn: { messageId: event.invocationId, events: [] } });
    else found.at(-1)?.turn.events.push(event);
  }
  return found;
}

async function assistantMessage(turn: Turn): Promise<UIMessage | undefined> {
  const chunks = new EventChunks();
  const body = turn.events.flatMap((event) => chunks.push(event));
  if (body.length === 0) return undefined;
  const all: UIMessageChunk[] = [{ type: 'start', messageId: turn.messageId }, ...body, ...chunks.end()];
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of all) controller.enqueue(chunk);
      controller.close();
    },
  });
  let message: UIMessage | undefined;
  for await (const state of readUIMessageStream({ stream })) message = state;
  return message;
}

function textOf(event: AgentEvent): string {
  return (event.content?.parts ?? []).map((part) => ('text' in part ? part.text : '')).join('');
}
