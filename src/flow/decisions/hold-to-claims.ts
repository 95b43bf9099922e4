/**
 * No claimed action without its call. A reply in words that says something
 * was done, is being done or will be (find-claims.ts), where no call of its
 * run did it, is not the run's answer:
 *
 * - where the step could call the claimed tool, the step is decided again,
 *   held to a call of it (once a run): the model said what the request needs;
 * - otherwise the reply is replaced by one that says plainly that nothing
 *   was done (or, for a thing the reply says it sent, which no tool does,
 *   that nothing was sent), and the model event keeps what it claimed
 *   (unperformedClaims).
 *
 * Qwen2.5-Coder 0.5B, asked in a conversation to tick an item off, answered
 * "You've marked the milk as done." with no call; on TodoMVC, "The tool
 * deleted the dog one.", and each run ended as if it had.
 */
import type { ModelRequest } from '../../model/engine';
import type { Claim } from './find-claims';
import type { Invocation, StepResponse } from '../types';
import { askedActions } from './asked-actions';
import { asksAboutThePast, isQuestion } from './question';
import { runRequest } from './run-request';
import { unperformedClaims } from './unperformed-claims';

/** What a reply that claimed in vain is replaced by when the step cannot be decided again. */
const NOTHING_DONE = 'Nothing was done: no tool ran for this request. Ask again if you want me to try.';
/** The same, when a call of the run did run: what it did stands, and the claim does not. */
const NOT_ALL_DONE =
  'Only what the calls above did was done; no tool ran for the rest. Ask again if you want me to try.';

export type ClaimsOutcome =
  /** The reply claims nothing it did not do. */
  | { kind: 'kept' }
  /** Decide the step again, held to these tools. */
  | { kind: 'redo'; tools: string[]; claims: Claim[] }
  /** The reply was replaced: it claimed these. */
  | { kind: 'replaced'; claims: Claim[] };

export function holdToClaims(inv: Invocation, request: ModelRequest, response: StepResponse): ClaimsOutcome {
  if (!inv.decisions?.claims || response.answeredBy || !response.text.trim()) return { kind: 'kept' };
  const run = inv.history.filter((event) => event.invocationId === inv.invocationId);
  // A question that asks for no action ("did you sort it?", "what's 2+2") is answered, never acted on: a claim in
  // its answer is replaced, not made good (the 0.5B answered one "The to-do list was sorted", and a redo sorted the
  // table; it answered "what's 2+2" with "The tool added a note", and a redo added one). A question about the past
  // asks what the session did, so the session's calls back its answer ("Yes, both notes were saved", after two
  // runs that saved them); any other question's answer claims what its own run did.
  const asked = runRequest(inv) ?? '';
  const question = isQuestion(asked) && !askedActions(asked, request.tools).length;
  const backing = question && asksAboutThePast(asked) ? inv.history : run;
  const claims = unperformedClaims(response.text, request.tools, backing);
  if (!claims.length) return { kind: 'kept' };
  const offered = new Set(request.allowedTools ?? request.tools.map((tool) => tool.name));
  const mayCall = !question && (request.toolChoice !== 'none' || request.messages.at(-1)?.role === 'user');
  const tools = [...new Set(claims.flatMap((claim) => claim.tools))].filter((tool) => offered.has(tool));
  if (mayCall && tools.length && !inv.run.redecided) {
    inv.run.redecided = true;
    inv.run.redo = { tools, claimed: claims.map((claim) => claim.sentence).join(' ') };
    return { kind: 'redo', tools, claims };
  }
  const ran = run.some((event) =>
    event.content?.parts.some((part) => 'functionResponse' in part && !part.functionResponse.error),
  );
  const beyond = claims.find((claim) => claim.beyond)?.beyond;
  response.text = beyond
    ? `Nothing was ${beyond.done}: none of the tools here can ${beyond.base} anything.${ran ? ' What the calls above did was done.' : ''}`
    : ran
      ? NOT_ALL_DONE
      : NOTHING_DONE;
  // Its own words must not come back in later prompts: a small model imitates its replies.
  response.raw = undefined;
  return { kind: 'replaced', claims };
}
