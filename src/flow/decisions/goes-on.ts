/**
 * A request that goes on from the one before ("and pack the kitchen", "oh
 * and pay rent", "also call mom and book dentist appt") asks for more of what
 * that one's calls did: it is held to a call of the tools the session's last
 * run with calls ran (those that act; a read is no action to go on with). Not a question ("and what's left?"), not one that says
 * nothing a call could take ("and thanks!"), and only when a run before it
 * ran a tool that is offered now.
 *
 * Why: in conversations it was not written from, the 0.5B answered "and pack
 * the kitchen" after a to-do with its odds of a call at 0.86 but then wrote
 * whatever its history held, and "also call mom and book dentist appt" with a
 * to-do and a note (an invented body) where the visitor was adding to-dos.
 */
import type { AgentEvent } from '../../session/event';
import { functionResponses } from '../../session/parts';
import type { ToolDeclaration } from '../../tools/declaration';
import { isQuestion } from './question';
import { valueWords } from './value-words';

/** "and …", "also …", "oh and …", "plus …", "ok and …" at a request's start. */
const GOES_ON = /^\W*(?:(?:oh|ah|ok|okay|right|yeah|yes)\W+)?(?:and|also|plus)\b/i;

export function toolsItGoesOnWith(
  request: string,
  tools: readonly ToolDeclaration[],
  history: readonly AgentEvent[],
  invocationId: string,
): string[] {
  if (!GOES_ON.test(request) || isQuestion(request)) return [];
  if (!valueWords(request, new Set()).size) return [];
  // What a run did, not what it read: a read is no action to go on with.
  const offered = new Set(tools.filter((tool) => !tool.annotations.readOnly).map((tool) => tool.name));
  let last: { invocation: string; ran: Set<string> } | undefined;
  for (const event of history) {
    if (event.invocationId === invocationId) continue;
    for (const response of functionResponses(event)) {
      if (response.error || !offered.has(response.name)) continue;
      if (last?.invocation !== event.invocationId) last = { invocation: event.invocationId, ran: new Set() };
      last.ran.add(response.name);
    }
  }
  return last ? tools.map((tool) => tool.name).filter((name) => last.ran.has(name)) : [];
}
