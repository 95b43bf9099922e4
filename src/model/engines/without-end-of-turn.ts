import { END_OF_TURN } from '../formats/output-vocabulary';

/**
 * A model turn as generated, without the end-of-turn tokens it closed with: replayed in a prompt, the
 * template (web-llm's, the GGUF's own) or our markup writes the turn's end again.
 */
export function withoutEndOfTurn(raw: string): string {
  let end = raw.length;
  for (let stripped = true; stripped;) {
    stripped = false;
    for (const token of END_OF_TURN) {
      if (end >= token.length && raw.startsWith(token, end - token.length)) {
        end -= token.length;
        stripped = true;
      }
    }
  }
  return raw.slice(0, end);
}
