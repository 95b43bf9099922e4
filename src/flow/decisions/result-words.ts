/**
 * The tools whose results hold a thing the request names. "Only show me the
 * teapot", after a sort that returned the products, is about sort_table's
 * rows: the teapot is a thing of that tool's world, whatever the request's
 * verb. Where the model's odds hold a step to a call, it is offered these
 * tools (decide-call.ts); a request that names nothing a result held is left
 * as it was.
 *
 * Why: held to a call of any of the demo's seven tools, Qwen2.5-Coder 0.5B
 * answered "only show me the teapot" with list_todos, and once with
 * add_todo("Buy a new teapot.").
 */
import type { AgentEvent } from '../../session/event';
import { functionResponses } from '../../session/parts';
import type { ToolDeclaration } from '../../tools/declaration';
import { isQuestion } from './question';
import { argumentWords, toolWords, valueWords } from './value-words';

export function toolsWhoseResultsHold(
  request: string,
  tools: readonly ToolDeclaration[],
  history: readonly AgentEvent[],
): string[] {
  // Names of things, not numbers: a count a tool returned ("notes": 2) names nothing.
  const words = [...valueWords(request, toolWords(tools))].filter((word) => /\p{L}/u.test(word));
  if (!words.length) return [];
  const holding = new Set<string>();
  for (const event of history)
    for (const response of functionResponses(event)) {
      if (response.error || holding.has(response.name)) continue;
      const returned = argumentWords(response.response);
      if (words.some((word) => returned.has(word))) holding.add(response.name);
    }
  // A request that asks for a change is no reader's: "make that oat milk" after a read of the list.
  const asks = isQuestion(request);
  return tools
    .filter((tool) => holding.has(tool.name) && (asks || !tool.annotations.readOnly))
    .map((tool) => tool.name);
}
