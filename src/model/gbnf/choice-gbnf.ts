/**
 * A grammar whose only sentences are the given options, for a few-token
 * answer held to a list (ModelEngine.choose). Greedy decoding under it takes
 * the option the model finds most likely, token by token: where options share
 * a beginning ("add_todo", "add_note"), the tokens after it decide.
 */
import { choice, literal } from './grammar-tree';
import { writeGbnf } from './write-gbnf';

export function choiceGbnf(options: readonly string[]): string {
  return writeGbnf(new Map([['root', choice(...options.map(literal))]]));
}

/** The option an answer written under choiceGbnf is: the longest that it begins with (one is a prefix of another). */
export function readChoice(answer: string, options: readonly string[]): string | undefined {
  const text = answer.trim();
  return [...options].sort((a, b) => b.length - a.length).find((option) => text.startsWith(option));
}
