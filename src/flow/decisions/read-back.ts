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
 *
 * A question that names what a tool that reads holds ("what's still on the
 * list?", list_todos reads "the to-do list") asks for that tool's reading,
 * once the session's tools have run: it is held to a call of it. Left to its
 * odds (0.40), the 0.5B answered "what's still on the list?" in words, "The
 * tool has not completed its work.", with sugar and butter on the list.
 */
import type { AgentEvent } from '../../session/event';
import type { ToolDeclaration } from '../../tools/declaration';
import { asksAboutThePast, isQuestion } from './question';
import { describedWords, valueWords } from './value-words';

/** Words that point back to a thing the conversation named ("it", "them"); not "one" ("which one's cheapest?"). */
const REFERS_BACK = /\b(it|its|it's|that|this|them|they|those|these|there)\b/;

/** Words of a reading tool too plain to say what it holds: its reading verbs, and the page it sits on. */
const PLAIN = new Set(['read', 'get', 'show', 'return', 'fetch', 'page']);

/** Whether the session has made a call before. */
const calledBefore = (history: readonly AgentEvent[]) =>
  history.some((event) => event.content?.parts.some((part) => 'functionCall' in part));

export function readersFor(
  request: string,
  tools: readonly ToolDeclaration[],
  history: readonly AgentEvent[],
): string[] {
  if (!isQuestion(request) || asksAboutThePast(request)) return [];
  if (!REFERS_BACK.test(request.toLowerCase().replace(/[’‘]/g, "'"))) return [];
  if (!calledBefore(history)) return [];
  return tools.filter((tool) => tool.annotations.readOnly).map((tool) => tool.name);
}

/**
 * The tools that only read whose things a question names ("what's still on the list?": list_todos, "Read the
 * to-do list"), after the session's tools ran; none for a question about what was done ("did you add it?"),
 * or one that names nothing a reading tool holds.
 */
export function readersAsked(
  request: string,
  tools: readonly ToolDeclaration[],
  history: readonly AgentEvent[],
): string[] {
  if (!isQuestion(request) || asksAboutThePast(request) || !calledBefore(history)) return [];
  const asked = valueWords(request, new Set());
  return tools
    .filter((tool) => tool.annotations.readOnly)
    .filter((tool) => {
      // Words that name things: four letters or more ("list", "todo"), not "the", "on", "this".
      const things = [...describedWords([tool])].filter((word) => word.length >= 4 && !PLAIN.has(word));
      return things.some((word) => asked.has(word));
    })
    .map((tool) => tool.name);
}
