// The run's table: per arm and category, accuracy, valid calls, no call, tokens and seconds.
import { expect, test } from 'vitest';
import type { CaseResult } from '../../../eval/run/case-result';
import { formatTable, summarize } from '../../../eval/run/summary';
import { wilsonInterval } from '../../../eval/run/wilson';

function result(over: Partial<CaseResult>): CaseResult {
  return {
    id: 'x',
    category: 'simple_python',
    arm: 'ours',
    model: 'm',
    calls: [],
    attempts: 1,
    unreadable: 0,
    valid: 1,
    verdict: 'correct',
    seconds: 1,
    startSeconds: 0.5,
    promptTokens: 100,
    ...over,
  };
}

test('accuracy, valid calls per call tried, no-call share, mean prompt tokens, median seconds', () => {
  const rows = summarize([
    result({ seconds: 1, promptTokens: 100 }),
    result({ verdict: 'wrong', attempts: 2, valid: 1, seconds: 3, promptTokens: 200 }),
    result({ verdict: 'invalid', attempts: 1, valid: 0, unreadable: 1, seconds: 2, promptTokens: 300 }),
    result({ verdict: 'wrong', attempts: 0, valid: 0, seconds: 10, promptTokens: 400 }),
  ]);
  expect(rows.map((row) => row.category)).toEqual(['simple_python', 'all']);
  expect(rows[0]).toEqual({
    arm: 'ours',
    category: 'simple_python',
    cases: 4,
    correct: 1,
    accuracy: 0.25,
    interval: wilsonInterval(1, 4),
    validCallRate: 2 / 4,
    noCallRate: 0.25,
    promptTokens: 250,
    seconds: 2.5,
    errors: 0,
  });
});

test('rows follow BFCL’s category order with the arms side by side; failed runs are counted apart', () => {
  const rows = summarize([
    result({ category: 'irrelevance', arm: 'fenced-json' }),
    result({ category: 'multiple', arm: 'ours' }),
    result({ category: 'multiple', arm: 'fenced-json', verdict: 'error', attempts: 0, valid: 0 }),
  ]);
  expect(rows.map((row) => `${row.category} ${row.arm}`)).toEqual([
    'multiple fenced-json',
    'multiple ours',
    'irrelevance fenced-json',
    'all fenced-json',
    'all ours',
  ]);
  expect(formatTable(rows).split('\n')[2]).toMatch(/^\| fenced-json \| multiple +\| 1 \(1 failed\) \| 0\.0% +\|/);
});

test('each accuracy carries its 95% Wilson interval, which stays inside 0..100% and is wide for few cases', () => {
  // Reference values: 5 of 10 gives 23.7–76.3%, 0 of 5 gives 0–43.4%, 30 of 30 gives 88.6–100%.
  const close = ([low, high]: [number, number]) => [Math.round(low * 1000) / 10, Math.round(high * 1000) / 10];
  expect(close(wilsonInterval(5, 10))).toEqual([23.7, 76.3]);
  expect(close(wilsonInterval(0, 5))).toEqual([0, 43.4]);
  expect(close(wilsonInterval(30, 30))).toEqual([88.6, 100]);
  expect(wilsonInterval(0, 0)).toEqual([0, 1]);
  const rows = summarize([
    ...Array.from({ length: 5 }, () => result({})),
    ...Array.from({ length: 5 }, () => result({ verdict: 'wrong' })),
  ]);
  expect(formatTable(rows).split('\n')[2]).toMatch(/^\| ours \| simple_python \| 10 +\| 50\.0% +\| 23\.7–76\.3 +\|/);
});
