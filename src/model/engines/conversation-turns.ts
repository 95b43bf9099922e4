/**
 * A step's conversation as a family reads it, whichever engine writes the
 * prompt: text the model did not write is escaped (escape.ts); its own
 * earlier turns are replayed as it generated them, without the end-of-turn
 * tokens the template writes again, or written back by its format when the
 * raw output was not kept, with their calls escaped too (escape-parts.ts);
 * and the results of one step's calls stay together, for the engine to write
 * as one message (see webllm-request.ts's nativeResults for why one).
 */
import type { ChatMessage } from '../engine';
import { escapeUntrusted, type Escape } from '../escape';
import { escapeCall } from '../escape-parts';
import type { ToolFormat, ToolResultText } from '../formats/tool-format';
import { withoutEndOfTurn } from './without-end-of-turn';

export type ConversationTurn =
  { role: 'user' | 'assistant'; content: string } | { role: 'results'; results: ToolResultText[] };

/** The conversation after the system text (system messages are the engine's to place), as turns. */
export function conversationTurns(
  messages: readonly ChatMessage[],
  format: ToolFormat,
  escape: Escape = escapeUntrusted,
): ConversationTurn[] {
  const out: ConversationTurn[] = [];
  let results: ToolResultText[] = [];
  const flush = () => {
    if (results.length) out.push({ role: 'results', results });
    results = [];
  };
  for (const message of messages) {
    if (message.role === 'system') continue;
    if (message.role === 'tool') {
      results.push({
        callId: escape(message.toolCallId),
        name: escape(message.name),
        content: escape(message.content),
      });
      continue;
    }
    flush();
    if (message.role === 'user') out.push({ role: 'user', content: escape(message.content) });
    else
      out.push({
        role: 'assistant',
        content:
          message.raw !== undefined
            ? withoutEndOfTurn(message.raw)
            : format.writeTurn(
                escape(message.content),
                (message.toolCalls ?? []).map((call) => escapeCall(call, escape)),
              ),
      });
  }
  flush();
  return out;
}
