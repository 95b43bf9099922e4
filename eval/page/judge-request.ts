/**
 * A request's verdict: right when its calls are the ones it asked for (no
 * call where none was asked), the page changed as asked and in no other way,
 * and the reply is there, says what it must and claims no action that no
 * call of the request performed. The counts issue 50's goals name come with
 * it, and each problem is a sentence of `why`.
 */
import { unbackedClaims, type Claim } from './claims';
import { describeCall, describeMatch, matchesCall } from './call-match';
import type { CallRecord } from './call-record';
import type { CallMatch, PageRequest } from './expectation';
import { judgePage } from './judge-page';
import type { PageState } from './page-state';
import { UNREADABLE_CALL, type RunRecord } from './run-record';
import { matchesText } from './text-match';
import { matchOneEach } from './match-one-each';
import { callsWritten } from '../run/calls-written';
import { sameData } from '../../src/tools/same-data';

export interface RequestCounts {
  /** Calls in a request whose right answer is words (chit-chat, a question no tool answers), beyond those allowed. */
  callsWhereNoneFits: number;
  /** Calls the request did not ask for and that no rule allows (those above included). */
  unaskedCalls: number;
  unknownTools: number;
  unreadableCalls: number;
  /** Calls with the same name and arguments as an earlier call of the same request. */
  repeatedCalls: number;
  /** Calls the reply shows as text (a JSON call no reader took): code a visitor reads, and nothing ran. */
  callsInReply: number;
  /** Destructive calls the page asked the visitor about when the request did not ask for them (the suite said no). */
  unaskedApprovals: number;
  emptyReply: boolean;
  unbackedClaims: Claim[];
}

export interface RequestJudgement extends RequestCounts {
  verdict: 'correct' | 'wrong';
  why: string[];
}

export interface RequestContext {
  before: PageState;
  after: PageState;
  /** The page tools. */
  tools: ReadonlySet<string>;
  /** Tools whose calls ran in earlier requests of this conversation. */
  ranEarlier: ReadonlySet<string>;
  /** The approvals the page asked for in this request. */
  approvals: readonly { name: string; granted: boolean }[];
}

const READ_LIST: CallMatch = { name: 'list_todos' };

export function judgeRequest(
  request: PageRequest,
  run: Pick<RunRecord, 'calls' | 'reply'>,
  context: RequestContext,
): RequestJudgement {
  const { expect } = request;
  const why: string[] = [];
  const required = expect.calls === 'none' ? [] : expect.calls;
  const allowed = [...(expect.allowed ?? []), ...(required.length ? [READ_LIST] : [])];

  const taken = matchOneEach(run.calls, required, matchesCall);
  required.forEach((matcher, i) => {
    if (taken[i] === undefined) why.push(`no call ${describeMatch(matcher)}`);
  });
  const unasked = run.calls.filter(
    (call, c) =>
      !taken.includes(c) &&
      !allowed.some((matcher) => matchesCall(call, { outcome: call.outcome, ...matcher })) &&
      // A try that changed nothing on the way to a call the request asked for (a wrong text, then the right one).
      !(call.outcome !== 'ran' && required.some((matcher) => matcher.name === call.name)),
  );
  for (const call of unasked) why.push(`${describeCall(call)} (${call.outcome}) was not asked for`);

  const unknown = run.calls.filter((call) => call.name !== UNREADABLE_CALL && !context.tools.has(call.name));
  for (const call of unknown) why.push(`${call.name} is no tool of the page`);
  const unreadable = run.calls.filter(isUnreadable);
  const repeated = repeats(run.calls);
  for (const call of repeated) why.push(`${describeCall(call)} was called again`);
  const unaskedApprovals = context.approvals.filter((approval) => !(expect.approves ?? []).includes(approval.name));

  why.push(...judgePage(context.before, context.after, expect.page));

  const emptyReply = !run.reply.trim();
  if (emptyReply) why.push('the reply is empty');
  const inReply = callsWritten(run.reply).calls;
  for (const call of inReply) why.push(`the reply shows a call as text: ${describeCall(call)}`);
  for (const words of expect.mentions ?? [])
    if (!matchesText(run.reply, words)) why.push(`the reply does not say "${words}"`);
  const performed = new Set(run.calls.filter((call) => call.outcome === 'ran').map((call) => call.name));
  for (const tool of expect.mayRecall ?? []) if (context.ranEarlier.has(tool)) performed.add(tool);
  const claims = unbackedClaims(run.reply, performed);
  for (const claim of claims)
    why.push(
      `the reply claims "${claim.phrase}" and no ${claim.tools.length ? claim.tools.join(' or ') : 'tool'} call did it`,
    );

  return {
    verdict: why.length ? 'wrong' : 'correct',
    why,
    callsWhereNoneFits: expect.calls === 'none' ? unasked.length : 0,
    unaskedCalls: unasked.length,
    unknownTools: unknown.length,
    unreadableCalls: unreadable.length,
    repeatedCalls: repeated.length,
    callsInReply: inReply.length,
    unaskedApprovals: unaskedApprovals.length,
    emptyReply,
    unbackedClaims: claims,
  };
}

/**
 * A call the model began and no reader could read: the runtime records it under a name of its own, or under its
 * tool's name with the raw text as its only argument, refused without a code (flow's refuse-unreadable-calls).
 */
function isUnreadable(call: CallRecord): boolean {
  if (call.name === UNREADABLE_CALL) return true;
  const args = call.args as Record<string, unknown> | null;
  return call.outcome === 'refused' && !call.code && !!args && Object.keys(args).join() === 'raw';
}

/** The calls that repeat an earlier call of the request: the same name, the same arguments (keys in any order). */
function repeats(calls: readonly CallRecord[]): CallRecord[] {
  return calls.filter((call, c) =>
    calls.slice(0, c).some((earlier) => earlier.name === call.name && sameData(earlier.args, call.args)),
  );
}
