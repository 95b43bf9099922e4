/**
 * Among the tools a shared verb asks for, the one this session's earlier
 * requests of the same verb ran. "Add call the landlord", after "add walk the
 * dog and water the plants" added two to-dos, means a to-do: the verb means
 * what it meant a moment ago. Read only when the request names none of the
 * tools (named-tools.ts), and only when the earlier requests agree on one tool;
 * else every tool stays and the model picks.
 *
 * Why: held to add_todo or add_note, Qwen2.5-Coder 0.5B wrote "add call the
 * landlord" as a note, after three requests of the same session had added
 * to-dos.
 */
import type { AgentEvent } from '../../session/event';
import { functionResponses, textOf } from '../../session/parts';
import type { ToolDeclaration } from '../../tools/declaration';
import { askedActions } from './asked-actions';
import { mendTypos } from './typos';

export function askedBefore(
  asked: readonly string[],
  tools: readonly ToolDeclaration[],
  history: readonly AgentEvent[],
): string[] {
  if (asked.length < 2) return [...asked];
  // One walk of the history: what each run ran, and the requests that asked the same tools by their verb.
  const ranIn = new Map<string, Set<string>>();
  const sameVerb: string[] = [];
  const same = asked.join('\n');
  for (const event of history) {
    for (const response of functionResponses(event))
      if (!response.error && asked.includes(response.name))
        ranIn.set(event.invocationId, (ranIn.get(event.invocationId) ?? new Set()).add(response.name));
    if (event.content?.role !== 'user') continue;
    const text = textOf(event.content.parts);
    if (text.trim() && askedActions(mendTypos(text, tools), tools).join('\n') === same)
      sameVerb.push(event.invocationId);
  }
  const ran = new Set(sameVerb.flatMap((invocation) => [...(ranIn.get(invocation) ?? [])]));
  return ran.size === 1 ? [...ran] : [...asked];
}
