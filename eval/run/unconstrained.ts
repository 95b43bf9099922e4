/**
 * What the same model wrote without our grammar, for a failure analysis: an
 * arm's answer set beside another arm's raw output on the same case (native's,
 * or ours-no-grammar's), that output read by our own readers (every family's
 * markup, any name accepted), so a wrong answer can be told apart as the
 * model's own choice (it wrote the same calls unconstrained) or something the
 * grammar or the reader changed.
 */
import type { ModelCall } from '../bfcl/types';
import type { CaseResult } from './case-result';
import { callsWritten } from './calls-written';

export const AGREEMENTS = {
  same: 'the same calls',
  'other-arguments': 'the same tools, other arguments',
  'other-tools': 'as many calls, other tools',
  'more-calls': 'more calls',
  'fewer-calls': 'fewer calls',
  'cut-call': 'a call cut off',
  'no-call': 'no call read',
} as const;

export type Agreement = keyof typeof AGREEMENTS;

/** How `answer`'s calls compare with those `free` wrote on the same case without a grammar. */
export function agreement(answer: CaseResult, free: CaseResult): Agreement {
  const { calls: written, unread } = callsWritten(free.raw ?? '');
  if (written.length !== answer.calls.length) {
    if (written.length === 0) return unread > 0 ? 'cut-call' : 'no-call';
    return written.length > answer.calls.length ? 'more-calls' : 'fewer-calls';
  }
  const names = (calls: readonly ModelCall[]) => JSON.stringify(calls.map((call) => call.name).sort());
  if (names(written) !== names(answer.calls)) return 'other-tools';
  const calls = (list: readonly ModelCall[]) => JSON.stringify(list.map(canonical).sort());
  return calls(written) === calls(answer.calls) ? 'same' : 'other-arguments';
}

/** A call as text with its object keys in order, so that key order does not count as a difference. */
function canonical(call: ModelCall): string {
  const sorted = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(sorted)
      : value && typeof value === 'object'
        ? Object.fromEntries(
            Object.entries(value)
              .sort(([a], [b]) => (a < b ? -1 : 1))
              .map(([key, item]) => [key, sorted(item)]),
          )
        : value;
  return JSON.stringify({ name: call.name, args: sorted(call.args) });
}
