/**
 * A run's lines judged again by today's judge, without the model: each line
 * holds what the request's judgement needs (its calls with their outcomes,
 * the reply, the approvals asked, the page after it), and the page before a
 * request is the page after the one before it in the same conversation. So
 * a judge improved after an hour-long run is applied to that run's answers.
 */
import { CONVERSATIONS } from './conversations';
import { judgeRequest } from './judge-request';
import { freshPageState } from './page-parts';
import type { PageResult } from './page-result';
import { latestResults } from './page-summary';
import { PAGE_TOOL_NAMES } from './page-tool-names';

export function rejudge(all: readonly PageResult[]): PageResult[] {
  const results = latestResults(all);
  const number = (result: PageResult) => Number(result.id.split('/').pop());
  const runs = new Map<string, PageResult[]>();
  for (const result of results) {
    const key = `${result.arm} ${result.conversation}`;
    runs.set(key, [...(runs.get(key) ?? []), result]);
  }
  const judged = new Map<PageResult, PageResult>();
  for (const run of runs.values()) {
    let before = freshPageState();
    const ranEarlier = new Set<string>();
    for (const result of run.sort((a, b) => number(a) - number(b))) {
      const request = CONVERSATIONS.find((c) => c.id === result.conversation)?.requests[number(result) - 1];
      if (result.verdict === 'error' || !result.page || request?.text !== result.request) {
        // A failed run left no page to read; a request the suite no longer asks has no expectation to hold.
        judged.set(result, result);
        if (result.page) before = result.page;
        continue;
      }
      const judgement = judgeRequest(request, result, {
        before,
        after: result.page,
        tools: PAGE_TOOL_NAMES,
        ranEarlier,
        approvals: result.approvals,
      });
      for (const call of result.calls) if (call.outcome === 'ran') ranEarlier.add(call.name);
      before = result.page;
      judged.set(result, {
        ...result,
        ...judgement,
        unbackedClaims: judgement.unbackedClaims.map(({ phrase, verb }) => ({ phrase, verb })),
      });
    }
  }
  return results.map((result) => judged.get(result)!);
}
