// Wrong answers by kind: each verdict comes from the real judge, so the kinds follow what it says.
import { expect, test } from 'vitest';
import type { BfclCategory } from '../../../eval/bfcl/categories';
import { judge } from '../../../eval/bfcl/judge';
import type { BfclFunction, ExpectedCall, ModelCall } from '../../../eval/bfcl/types';
import type { CaseResult } from '../../../eval/run/case-result';
import { failureKind, failureKinds, formatFailureKinds } from '../../../eval/run/failure-kinds';

const f: BfclFunction = {
  name: 'f',
  description: 'f does something.',
  parameters: { type: 'dict', properties: { a: { type: 'integer' } }, required: ['a'] },
};
const g: BfclFunction = { ...f, name: 'g' };

/** A results line as the eval writes it: the judge's verdict on these calls. */
function judged(
  category: BfclCategory,
  expected: ExpectedCall[] | undefined,
  calls: ModelCall[],
  over: Partial<CaseResult> = {},
): CaseResult {
  const unreadable = over.unreadable ?? 0;
  const verdict = judge({ id: 'c', category, messages: [], functions: [f, g], expected }, { calls, unreadable });
  return {
    id: over.id ?? 'c',
    category,
    arm: 'ours',
    model: 'm',
    calls,
    attempts: calls.length + unreadable,
    unreadable,
    valid: calls.length,
    seconds: 1,
    startSeconds: 0,
    completionTokens: 30,
    ...verdict,
    ...over,
  };
}

const one = [{ f: { a: [1] } }];
const two = [{ f: { a: [1] } }, { f: { a: [2] } }];

test('each kind of wrong answer, as the judge words it', () => {
  const kinds = [
    judged('irrelevance', undefined, [{ name: 'f', args: { a: 1 } }]),
    judged('live_relevance', undefined, []),
    judged('simple_python', one, []),
    judged('parallel', two, [{ name: 'f', args: { a: 1 } }]),
    judged('multiple', one, [
      { name: 'f', args: { a: 1 } },
      { name: 'f', args: { a: 1 } },
    ]),
    judged('multiple', one, [{ name: 'g', args: { a: 1 } }]),
    judged('simple_python', one, [{ name: 'f', args: { a: 5 } }]),
    judged('parallel', two, [
      { name: 'f', args: { a: 1 } },
      { name: 'f', args: { a: 3 } },
    ]),
  ].map((result) => failureKind(result, 128));
  expect(kinds).toEqual([
    'call-where-none',
    'no-call',
    'no-call',
    'fewer-calls',
    'more-calls',
    'wrong-tool',
    'argument',
    'argument',
  ]);
});

test('a call not read is cut by the cap only when the answer reached it', () => {
  const cut = judged('simple_python', one, [], { unreadable: 1, completionTokens: 128 });
  const short = judged('simple_python', one, [], { unreadable: 1, completionTokens: 40 });
  expect(failureKind(cut, 128)).toBe('cut-by-cap');
  expect(failureKind(short, 128)).toBe('unreadable');
  expect(failureKind(cut)).toBe('unreadable');
  // An irrelevance case whose call was cut is right for BFCL, and no failure here either.
  expect(failureKind(judged('irrelevance', undefined, [], { unreadable: 1, completionTokens: 128 }), 128)).toBe(
    undefined,
  );
});

test('right answers have no kind, failed runs one of their own', () => {
  expect(failureKind(judged('simple_python', one, [{ name: 'f', args: { a: 1 } }]))).toBeUndefined();
  expect(failureKind(judged('simple_python', one, [], { verdict: 'error', why: 'worker died' }))).toBe('failed');
});

test('per arm, the commonest kind first, with its cases in the file’s order; the table counts each arm’s wrong', () => {
  const results = [
    judged('irrelevance', undefined, [{ name: 'f', args: { a: 1 } }], { id: 'i1' }),
    judged('simple_python', one, [{ name: 'g', args: { a: 1 } }], { id: 's1' }),
    judged('irrelevance', undefined, [{ name: 'g', args: { a: 1 } }], { id: 'i2' }),
    judged('simple_python', one, [{ name: 'f', args: { a: 1 } }], { id: 's2' }),
    judged('simple_python', one, [], { id: 's1', arm: 'native' }),
  ];
  const rows = failureKinds(results, { maxTokens: 128 });
  expect(rows).toEqual([
    { arm: 'ours', kind: 'call-where-none', ids: ['i1', 'i2'] },
    { arm: 'ours', kind: 'wrong-tool', ids: ['s1'] },
    { arm: 'native', kind: 'no-call', ids: ['s1'] },
  ]);
  const table = formatFailureKinds(rows, results);
  expect(table).toContain('| ours | **wrong, all kinds** | 3 of 4 |  |');
  expect(table).toContain('| ours | a call where none was wanted | 2 | i1, i2 |');
  expect(table).toContain('| native | no call where one was wanted | 1 | s1 |');
});

test('beside a free-decoding arm, each kind says what that arm wrote on the same cases', () => {
  const results = [
    judged('irrelevance', undefined, [{ name: 'f', args: { a: 1 } }], { id: 'i1' }),
    judged('irrelevance', undefined, [{ name: 'f', args: { a: 1 } }], { id: 'i2' }),
    judged('irrelevance', undefined, [], {
      id: 'i1',
      arm: 'native',
      raw: '```json\n{"name": "f", "arguments": {"a": 1}}\n```',
    }),
    judged('irrelevance', undefined, [], { id: 'i2', arm: 'native', raw: 'No function fits.' }),
  ];
  const rows = failureKinds(results, { unconstrained: 'native' });
  expect(rows).toEqual([
    { arm: 'ours', kind: 'call-where-none', ids: ['i1', 'i2'], unconstrained: { same: 1, 'no-call': 1 } },
  ]);
  expect(formatFailureKinds(rows, results, 'native')).toContain(
    '| ours | a call where none was wanted | 2 | the same calls 1, no call read 1 | i1, i2 |',
  );
});
