/**
 * Only what this request asks. In a turn of several calls of one tool, a
 * call whose own words (those that set it apart from the turn's other calls
 * of that tool) name nothing the request names, while another call's do, is
 * answered with the reason instead of running: it takes a thing from earlier
 * in the conversation that this request did not ask about.
 *
 * A turn whose calls name nothing of the request ("mark them all done") is
 * let be: the request points back, and each call may be what it meant; so
 * is a call whose thing the conversation never held before (a value the
 * model worked out: the derivative BFCL's parallel_71 asks to evaluate),
 * unless the turn has more calls of the tool than the request lists things
 * ("add dry cleaning" and four chores of the model's own).
 *
 * Why (that part): asked to "add dry cleaning", the held-out 0.5B added it
 * and then "Washing dishes", "Cleaning the kitchen", "Washing the floors"…
 *
 * Why: told "the laundry is finished" on a list of laundry, vacuum and fix
 * the bike, the 0.5B wrote complete_todo for all three ("Finished laundry",
 * "Finished vacuum", "Finished fix the bike"), the other two taken from the
 * request before, which the grounded-values rule lets pass.
 */
import { refusal } from '../call-processors/refusal';
import type { ToolDeclaration } from '../../tools/declaration';
import type { TurnProcessor } from '../types';
import { runRequest } from './run-request';
import { itemsListed } from './items-listed';
import { wordsBefore } from './session-words';
import { isSlipOf, mendTypos } from './typos';
import { argumentWords, toolWords, valueWords } from './value-words';

const BEYOND_REQUEST = 'beyond-request';

export const onlyWhatIsAsked: TurnProcessor = (inv, turn) => {
  if (!inv.decisions?.moreCalls) return;
  const request = runRequest(inv);
  if (!request) return;
  const open = turn.calls.filter((call) => !call.response && call.declaration);
  const beyond = beyondRequest(
    request,
    open.map((call) => ({ ...call.call, declaration: call.declaration! })),
    wordsBefore(inv.history, inv.invocationId, { said: true, calls: () => true }),
  );
  for (const [i, meant] of beyond) {
    const call = open[i]!;
    call.response = refusal(
      turn,
      call,
      `Not run: this request asks for ${meant.map((args) => JSON.stringify(args)).join(', ')}, not for ${JSON.stringify(call.call.args)}, which it does not name. Call ${call.call.name} only for what the user asks now.`,
      BEYOND_REQUEST,
    );
  }
};

/** A call as the rule reads it. */
export interface AskedCall {
  name: string;
  args: unknown;
  declaration: ToolDeclaration;
}

/**
 * The calls (by index) that go beyond the request, each with the arguments of its tool's calls that do not.
 * `earlier`: the words of the conversation before the request; a call is refused only for a thing found there.
 */
export function beyondRequest(
  request: string,
  calls: readonly AskedCall[],
  earlier: ReadonlySet<string>,
): Map<number, unknown[]> {
  const beyond = new Map<number, unknown[]>();
  const byTool = new Map<string, number[]>();
  calls.forEach((call, i) => byTool.set(call.name, [...(byTool.get(call.name) ?? []), i]));
  for (const indices of byTool.values()) {
    if (indices.length < 2) continue;
    const own = toolWords([calls[indices[0]!]!.declaration]);
    // "1,5 and 10 years" is three numbers, not 1.5; "$500,000" is 500000.
    const mended = mendTypos(request, [calls[indices[0]!]!.declaration]);
    const asked = new Set(
      [mended, mended.replace(/,/g, ' '), mended.replace(/(\d),(?=\d{3}\b)/g, '$1')].flatMap((reading) => [
        ...valueWords(reading, own),
      ]),
    );
    const words = indices.map((i) => [...argumentWords(calls[i]!.args)].filter((word) => valueWords(word, own).size));
    // The words every call of the tool has ("finished" in each) tell none of them apart.
    const shared = words.reduce((common, list) => common.filter((word) => list.includes(word)));
    const apart = words.map((list) => list.filter((word) => !shared.includes(word)));
    // How many of the request's words each call names.
    const named = apart.map(
      (list) => list.filter((word) => asked.has(word) || [...asked].some((other) => isSlipOf(other, word))).length,
    );
    if (!named.some(Boolean)) continue;
    // More calls than the request lists things: only the ones naming the most of it are its (as many as it
    // lists); the others are the model's own ("Cleaning the kitchen" shares a word with "add dry cleaning").
    // A sentence of its own is a thing asked too ("… $2000 with a gain of $500. Do the same for $5000 …").
    const listed = itemsListed(request) + (request.match(/[.!?]\s+\S/g)?.length ?? 0);
    const tooMany = indices.length > listed;
    const least = tooMany ? ([...named].sort((a, b) => b - a)[listed - 1] ?? 1) : 1;
    const names = named.map((count) => count >= Math.max(least, 1));
    const meant = indices.filter((_, k) => names[k]).map((i) => calls[i]!.args);
    indices.forEach((i, k) => {
      if (!names[k] && apart[k]!.some((word) => tooMany || earlier.has(word))) beyond.set(i, meant);
    });
  }
  return beyond;
}
