/**
 * The page suite's table, per arm: requests right with their 95% Wilson
 * interval, the counts issue 50's goals name (calls where no tool fits,
 * replies that claim an action no call performed, unknown tools, empty
 * replies, repeated calls) and the ones beside them (calls not asked for,
 * unreadable calls, calls a reply shows as text, destructive calls the
 * visitor was asked about unasked),
 * seconds per request (median) and tokens per request (mean); then each
 * arm's share right by what the requests test.
 */
import type { ArmName } from '../arms/arm';
import { markdownTable } from '../run/markdown-table';
import { median } from '../run/median';
import { wilsonInterval } from '../run/wilson';
import type { RequestKind } from './expectation';
import type { PageResult } from './page-result';

export interface PageSummaryRow {
  arm: ArmName;
  requests: number;
  correct: number;
  interval: [low: number, high: number];
  callsWhereNoneFits: number;
  /** Replies with at least one claim no call of their request backs. */
  claimingReplies: number;
  unknownTools: number;
  emptyReplies: number;
  repeatedCalls: number;
  unaskedCalls: number;
  unreadableCalls: number;
  callsInReply: number;
  unaskedApprovals: number;
  errors: number;
  seconds?: number;
  promptTokens?: number;
  completionTokens?: number;
  /** Per kind of request: right of asked. */
  kinds: Partial<Record<RequestKind, { correct: number; requests: number }>>;
}

/** A request asked again (a resumed run asks a conversation it had not finished from its start) counts once: its last answer. */
export function latestResults(results: readonly PageResult[]): PageResult[] {
  const last = new Map<string, PageResult>();
  for (const result of results) {
    const key = `${result.id} ${result.arm}`;
    last.delete(key);
    last.set(key, result);
  }
  return [...last.values()];
}

export function summarizePage(all: readonly PageResult[]): PageSummaryRow[] {
  const results = latestResults(all);
  const arms = [...new Set(results.map((result) => result.arm))];
  return arms.map((arm) => {
    const own = results.filter((result) => result.arm === arm);
    const judged = own.filter((result) => result.verdict !== 'error');
    const correct = own.filter((result) => result.verdict === 'correct').length;
    const count = (pick: (result: PageResult) => number | boolean) =>
      own.reduce((total, result) => total + Number(pick(result)), 0);
    const kinds: PageSummaryRow['kinds'] = {};
    for (const result of own)
      for (const kind of result.kinds) {
        const cell = (kinds[kind] ??= { correct: 0, requests: 0 });
        cell.requests++;
        if (result.verdict === 'correct') cell.correct++;
      }
    return {
      arm,
      requests: own.length,
      correct,
      interval: wilsonInterval(correct, own.length),
      callsWhereNoneFits: count((result) => result.callsWhereNoneFits),
      claimingReplies: count((result) => result.unbackedClaims.length > 0),
      unknownTools: count((result) => result.unknownTools),
      emptyReplies: count((result) => result.verdict !== 'error' && result.emptyReply),
      repeatedCalls: count((result) => result.repeatedCalls),
      unaskedCalls: count((result) => result.unaskedCalls),
      unreadableCalls: count((result) => result.unreadableCalls),
      callsInReply: count((result) => result.callsInReply ?? 0),
      unaskedApprovals: count((result) => result.unaskedApprovals),
      errors: count((result) => result.verdict === 'error'),
      ...(judged.length && {
        seconds: median(judged.map((result) => result.seconds)),
        promptTokens: mean(judged.map((result) => result.promptTokens)),
        completionTokens: mean(judged.map((result) => result.completionTokens)),
      }),
      kinds,
    };
  });
}

const KINDS: Record<RequestKind, string> = {
  several: 'several in one message',
  'no-tool': 'no tool fits',
  'follow-up': 'follow-ups',
  'pick-tool': 'the right tool',
  values: "the visitor's values",
  'claim-bait': 'claim bait',
  destructive: 'destructive',
  question: 'questions on the page',
};

export function formatPageTable(rows: readonly PageSummaryRow[]): string {
  const percent = (correct: number, of: number) => (of ? `${((correct / of) * 100).toFixed(1)}%` : '–');
  const main = markdownTable(
    [
      'arm',
      'requests',
      'right',
      '95% interval',
      'calls where no tool fits',
      'replies claiming undone actions',
      'unknown tools',
      'empty replies',
      'repeated calls',
      'calls not asked for',
      'unreadable calls',
      'calls shown as text',
      'destructive asked unasked',
      's/request (median)',
      'prompt tok/request',
      'completion tok/request',
    ],
    rows.map((row) => [
      row.arm,
      String(row.requests) + (row.errors ? ` (${row.errors} failed)` : ''),
      `${row.correct} (${percent(row.correct, row.requests)})`,
      `${(row.interval[0] * 100).toFixed(1)}–${(row.interval[1] * 100).toFixed(1)}`,
      String(row.callsWhereNoneFits),
      String(row.claimingReplies),
      String(row.unknownTools),
      String(row.emptyReplies),
      String(row.repeatedCalls),
      String(row.unaskedCalls),
      String(row.unreadableCalls),
      String(row.callsInReply),
      String(row.unaskedApprovals),
      row.seconds === undefined ? '–' : row.seconds.toFixed(1),
      row.promptTokens === undefined ? '–' : row.promptTokens.toFixed(0),
      row.completionTokens === undefined ? '–' : row.completionTokens.toFixed(0),
    ]),
  );
  const kinds = (Object.keys(KINDS) as RequestKind[]).filter((kind) => rows.some((row) => row.kinds[kind]));
  const byKind = markdownTable(
    ['arm', ...kinds.map((kind) => KINDS[kind])],
    rows.map((row) => [
      row.arm,
      ...kinds.map((kind) => {
        const cell = row.kinds[kind];
        return cell ? `${cell.correct}/${cell.requests}` : '–';
      }),
    ]),
  );
  return `${main}\n\nRight, by what the requests test (a request may test several things):\n\n${byKind}`;
}

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
