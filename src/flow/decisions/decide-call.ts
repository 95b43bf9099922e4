/**
 * Call or answer, decided before a request's first step writes anything,
 * and the step then held to it (its tool choice):
 *
 * - a request that names a tool's action ("sort the products", asked-actions.ts)
 *   is held to a call of that tool (or of those tools; of those it names, when
 *   several share the verb: "put it on the todo list", named-tools.ts; named by
 *   none, of the one the session's earlier requests of that verb ran,
 *   asked-before.ts);
 * - a statement that a thing an earlier call took was done ("got the
 *   batteries", "Van's booked!") is held to a call of the tool that marks
 *   things done (done-with.ts);
 * - with the part givenValues, a request that gives a value in the format a
 *   tool's parameter takes (an email address, a date) and asks no question is
 *   held to a call of that tool: Qwen2.5-Coder 0.5B's odds of a call were
 *   0.00 on "My name is Dana Wu, email dana.wu@example.com, and I want to
 *   ask…" on a page whose contact form takes a name, an email and a message;
 * - a question about what was done that asks for nothing ("did you add my
 *   groceries?") is held to words: the reply is checked against the session's
 *   calls (hold-to-claims.ts). Left to its odds (0.76), the 0.5B called
 *   add_todo and wrote "bread, eggs, milk, " until its token limit;
 * - a request that shares no word with any tool, in a session that has not
 *   called one, is held to words (outside-tools.ts); but a question that
 *   refers back to what the tools touched ("what's left on it?") is offered
 *   the tools that read, and its odds decide (read-back.ts);
 * - a question about what a tool that reads holds ("what's still on the list?"),
 *   once the session's tools ran, is held to a call of that tool (read-back.ts);
 * - a request that goes on from the one before ("and pack the kitchen", "also
 *   call mom") is held to a call of the tools the last run with calls ran
 *   (goes-on.ts);
 * - else the model's own odds of opening with a call (ModelEngine.callChance)
 *   decide: at least CALL_AT_LEAST, a call; below, words. Greedy decoding
 *   takes the likelier opening anyway; held to it, a step that opens in words
 *   no longer writes a call after them (Qwen2.5-Coder 0.5B did on BFCL's
 *   irrelevance cases, "To find…" and then a call), nor does one that opens
 *   with a call end it in prose.
 *
 * Each rule reads the request with its misspelt tool words mended (typos.ts).
 *
 * Held to a call among several tools, the step is offered only the tools the
 * request's words point to (fitting-tools.ts), when the part toolsThatFit is on
 * (off by default: docs/evals.md); held by its odds, only the tools whose
 * earlier results hold a thing the request names, if any (result-words.ts).
 *
 * Only the first step of a request (its last message is the person's):
 * after results, the round rules and the offer of more calls decide. An
 * engine without callChance decides as it writes.
 */
import { emitPartial } from '../record';
import { requestOf } from '../request-processors/step-request';
import type { Invocation, RequestProcessor, StepRequest } from '../types';
import { askedActions } from './asked-actions';
import { askedBefore } from './asked-before';
import { markingToolsFor } from './done-with';
import { fittingTools, toolsTakingValues } from './fitting-tools';
import { toolsItGoesOnWith } from './goes-on';
import { outsideTools } from './outside-tools';
import { readersAsked, readersFor } from './read-back';
import { toolsWhoseResultsHold } from './result-words';
import { asksAboutThePast, isQuestion } from './question';
import { mendTypos } from './typos';
import { namedTools } from './named-tools';

/** The model's chance of opening with a call at which the step is held to one. */
const CALL_AT_LEAST = 0.65;

export const decideCallProcessor: RequestProcessor = async (inv, step) => {
  const { redo } = inv.run;
  if (redo) {
    inv.run.redo = undefined;
    holdToCall(step, redo.tools, 'claim');
    step.decision = { ...step.decision!, claimed: redo.claimed };
    return;
  }
  const { decisions } = inv;
  if (!decisions?.callOrAnswer || step.toolChoice) return;
  const last = step.messages.at(-1);
  if (last?.role !== 'user') return;
  const offered = new Set(step.allowedTools ?? step.tools.map((tool) => tool.name));
  const tools = step.tools.filter((tool) => offered.has(tool.name));
  if (!tools.length) return;
  // What the request asks and names, its tool words spelled as the tools spell them ("sortt prodcts").
  const request = mendTypos(last.content, tools);
  // Among several tools, the ones the request's words point to.
  const fit = (names: readonly string[]) =>
    decisions.toolsThatFit
      ? fittingTools(
          request,
          tools.filter((tool) => names.includes(tool.name)),
        )
      : [...names];
  const asked = askedActions(request, tools);
  // Among tools that share the verb asked, the ones the request names ("the todo list"), or, named by none, the
  // one this session's earlier requests of the same verb ran ("add …" meant a to-do).
  if (asked.length) {
    const named = namedTools(request, asked, tools);
    const meant = named.length > 1 ? askedBefore(named, tools, inv.history) : named;
    return holdToCall(step, fit(meant), 'asked');
  }
  // A statement that a thing an earlier call took is done ("got the batteries") asks the tool that marks it so.
  const marking = markingToolsFor(request, tools, inv.history, inv.invocationId);
  if (marking.length) return holdToCall(step, marking, 'asked');
  // A value only a tool takes ("my email is dana@wu.studio"), given outside a question, is given for that tool.
  const taking =
    !decisions.givenValues || last.content.trim().endsWith('?') ? [] : toolsTakingValues(last.content, tools);
  if (taking.length && taking.length < tools.length) return holdToCall(step, fit(taking), 'values');
  if (isQuestion(last.content) && asksAboutThePast(last.content)) return holdToWords(step, 'question');
  // The session before this request: its own words are not something the session held.
  const before = inv.history.filter((event) => event.invocationId !== inv.invocationId);
  if (outsideTools(request, tools, before)) {
    // A question about what the tools touched ("what's left on it?"): a tool that reads may answer it.
    const readers = readersFor(request, tools, inv.history);
    if (!readers.length || !inv.engine.callChance) return holdToWords(step, 'words');
    step.allowedTools = readers;
    return byChance(inv, step, readers);
  }
  // A question about what a reading tool holds ("what's still on the list?"), once the tools ran: it reads.
  const reading = readersAsked(request, tools, inv.history);
  if (reading.length) return holdToCall(step, reading, 'reads');
  // A request that goes on from the one before ("and pack the kitchen") asks for more of what that one did.
  const goesOn = toolsItGoesOnWith(request, tools, inv.history, inv.invocationId);
  if (goesOn.length) return holdToCall(step, fit(goesOn), 'goes-on');
  if (!inv.engine.callChance) return;
  const fitting = fit(tools.map((tool) => tool.name));
  // A thing an earlier result held ("the teapot", a row sort_table returned) points to the tool that returned it.
  const holding = fitting.length < tools.length ? fitting : toolsWhoseResultsHold(request, tools, inv.history);
  return byChance(inv, step, holding.length < tools.length ? holding : []);
};

/** The model's own odds of opening with a call decide: a call of `tools` (of any, when empty), or words. */
async function byChance(inv: Invocation, step: StepRequest, tools: string[]): Promise<void> {
  const { chance, ms, usage } = await inv.engine.callChance!(requestOf(step), inv.signal, (read) =>
    emitPartial(inv, { author: step.agent.name, promptRead: read }),
  );
  if (usage) step.decisionUsage = usage;
  if (chance < CALL_AT_LEAST) {
    step.toolChoice = 'none';
    step.decision = { held: 'answer', by: 'chance', chance, ms };
    return;
  }
  holdToCall(step, tools, 'chance');
  step.decision = { ...step.decision!, chance, ms };
}

function holdToWords(step: StepRequest, by: 'words' | 'question'): void {
  step.toolChoice = 'none';
  step.decision = { held: 'answer', by };
}

/** Holds the step to a call of `tools` (of any tool offered, when empty). */
function holdToCall(
  step: StepRequest,
  tools: string[],
  by: 'asked' | 'values' | 'goes-on' | 'reads' | 'claim' | 'chance',
): void {
  if (tools.length === 1) step.toolChoice = { name: tools[0]! };
  else {
    step.toolChoice = 'required';
    if (tools.length) step.allowedTools = tools;
  }
  step.decision = { held: 'call', by, ...(tools.length && { tools }) };
}
