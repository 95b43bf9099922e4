/**
 * A question that refers back to what the session's tools touched ("what's
 * left on it?", "is it empty now?") may be answered by reading: it names no
 * tool's word, so outside-tools.ts would hold it to words, but the thing it
 * asks about is on the page, and only a tool that reads can say. The tools
 * that only read (annotations.readOnly) are offered, and the model's odds
 * decide; a question that refers to nothing ("what's 2+2"), or one asked
 * before any tool ran, stays words.
 *
 * Why: after "Put milk, eggs and bread on my list", Qwen2.5-Coder 0.5B
 * answered "what's left on it?" held to words with "The tool has not yet
 * added any items to the to-do list."
 */
import type { AgentEvent } from '../../session/event';
import type { ToolDeclaration } from '../../tools/declaration';
import { asksAboutThePast, isQuestion } from './question';

/** Words that point back to a thing the conversation named ("it", "them"); not "one" ("which one's cheapest?"). */
const REFERS_BACK = /\b(it|its|it's|that|this|them|they|those|these|there)\b/;

export function readersFor(
  request: string,
  tools: readonly ToolDeclaration[],
  history: readonly AgentEvent[],
): string[] {
  if (!isQuestion(request) || asksAboutThePast(request)) return [];
  if (!REFERS_BACK.test(request.toLowerCase().replace(/[’‘]/g, "'"))) return [];
  if (!history.some((event) => event.content?.parts.some((part) => 'functionCall' in part))) return [];
  return tools.filter((tool) => tool.annotations.readOnly).map((tool) => tool.name);
}
