/**
 * The words a session held before a request, as the rules that look back
 * compare them with a request's or a call's: what the person said, what
 * calls were written with, what the tools returned, each stemmed
 * (value-words.ts). One walk of the history, the request's own run left out.
 */
import type { AgentEvent } from '../../session/event';
import { argumentWords, valueWords } from './value-words';

export interface WordsTaken {
  /** What the person wrote. */
  said?: boolean;
  /** The arguments of the calls to the tools this accepts. */
  calls?: (name: string) => boolean;
  /** What the tools returned. */
  returned?: boolean;
}

/** The words of the session's runs but `invocationId` (none left out when absent). */
export function wordsBefore(
  history: readonly AgentEvent[],
  invocationId: string | undefined,
  take: WordsTaken,
): Set<string> {
  const words = new Set<string>();
  const add = (more: Iterable<string>) => {
    for (const word of more) words.add(word);
  };
  for (const event of history) {
    if (event.partial || event.invocationId === invocationId) continue;
    for (const part of event.content?.parts ?? []) {
      if (take.said && event.content!.role === 'user' && 'text' in part) add(valueWords(part.text, new Set()));
      if (take.calls && 'functionCall' in part && take.calls(part.functionCall.name))
        add(argumentWords(part.functionCall.args));
      if (take.returned && 'functionResponse' in part) add(argumentWords(part.functionResponse.response));
    }
  }
  return words;
}
