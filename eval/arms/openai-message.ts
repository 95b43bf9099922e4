/**
 * Our history as OpenAI's chat messages, for the arms whose model is asked through a runtime's own chat
 * completion (native-tools-engine.ts): the calls an assistant turn made, and each result as a tool message
 * answering its call by id, so that llama.cpp's template writes a conversation the way the model was trained to
 * read it (a page's run has steps after its calls, and a session many runs).
 */
import type { ChatMessage as OurMessage } from '../../src/model/engine';
import type { ChatMessage } from './chat-types';

export function openAiMessage(message: OurMessage): ChatMessage {
  if (message.role === 'tool') return { role: 'tool', content: message.content, toolCallId: message.toolCallId };
  if (message.role !== 'assistant') return { role: message.role, content: message.content };
  const toolCalls = (message.toolCalls ?? []).map((call) => ({
    ...(call.id && { id: call.id }),
    name: call.name,
    arguments: JSON.stringify(call.args ?? {}),
  }));
  return { role: 'assistant', content: message.content, ...(toolCalls.length && { toolCalls }) };
}
