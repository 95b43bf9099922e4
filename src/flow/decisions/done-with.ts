/**
 * A statement that a thing an earlier call took has been done ("got the
 * batteries", "Van's booked!", "emailed the landlord") asks the tool that
 * marks things done: a verb in the past ("-ed", or one of the common
 * irregular ones) and a word an earlier call of another tool was written
 * with, in a statement, not a question. Not a verb that says it was not done
 * ("missed the dentist", "forgot the milk").
 *
 * Why: "garlic's done" and "dry cleaning is done" were read (asked-actions.ts,
 * its words for done), but in conversations it was not written from the 0.5B
 * answered "got the batteries" in words (its odds of a call 0.14) and wrote
 * "Van's booked!" and "emailed the landlord" as a new to-do and a note.
 */
import type { AgentEvent } from '../../session/event';
import type { ToolDeclaration } from '../../tools/declaration';
import { ownVerbsOf } from './action-verbs';
import { isQuestion } from './question';
import { wordsBefore } from './session-words';
import { valueWords } from './value-words';

/** The verbs of a tool that marks a thing done. */
const MARKING = ['complete', 'finish', 'tick', 'mark', 'check'];
/** Past forms that do not end in -ed (not "put", "read", "left": as often present, or "what's left"). */
const IRREGULAR_PAST =
  /\b(?:got|gotten|bought|paid|sent|made|did|done|took|taken|gave|given|wrote|written|ran|went|gone|came|found|told|sold|brought|kept|met|won)\b/;
/** A past form in -ed ("booked", "emailed"; not "need", "bed", "red"). */
const PAST_IN_ED = /\b[a-z]{2,}[^e]ed\b/g;
/** Words in -ed that say how someone feels or what is meant, not what was done. */
const NOT_PAST = new Set(
  'interested excited worried tired bored confused surprised scared pleased annoyed used supposed hundred'.split(' '),
);
/** Past forms that say the thing was not done. */
const NOT_DONE =
  /\b(?:missed|forgot|forgotten|failed|skipped|lost|postponed|delayed|cancel(?:l)?ed the (?:plan|idea)|didn't|did not|haven't|hasn't|not|never|yet)\b/;

export function markingToolsFor(
  request: string,
  tools: readonly ToolDeclaration[],
  history: readonly AgentEvent[],
  invocationId: string,
): string[] {
  const text = request.toLowerCase().replace(/[’‘]/g, "'");
  if (isQuestion(request) || NOT_DONE.test(text)) return [];
  const past = IRREGULAR_PAST.test(text) || [...text.matchAll(PAST_IN_ED)].some(([word]) => !NOT_PAST.has(word));
  if (!past) return [];
  const marking = tools.filter((tool) => ownVerbsOf(tool).some((verb) => MARKING.includes(verb)));
  if (!marking.length) return [];
  const names = new Set(marking.map((tool) => tool.name));
  // The words earlier calls of the other tools were written with: the things a to-do, a booking… holds.
  const taken = wordsBefore(history, invocationId, { calls: (name) => !names.has(name) });
  const said = valueWords(text.replace(/'s\b/g, ' '), new Set());
  return [...said].some((word) => taken.has(word)) ? [...names] : [];
}
