// What the same model wrote without our grammar, read by our own readers from another arm's raw output.
import { expect, test } from 'vitest';
import type { ModelCall } from '../../../eval/bfcl/types';
import type { CaseResult } from '../../../eval/run/case-result';
import { agreement } from '../../../eval/run/unconstrained';

function answer(calls: ModelCall[], raw = ''): CaseResult {
  return {
    id: 'c',
    category: 'parallel',
    arm: 'ours',
    model: 'm',
    calls,
    attempts: calls.length,
    unreadable: 0,
    valid: calls.length,
    verdict: 'wrong',
    seconds: 1,
    startSeconds: 0,
    raw,
  };
}
const free = (raw: string) => ({ ...answer([], raw), arm: 'native' as const });

const area = { name: 'area', args: { width: 5, length: 7 } };
const fenced = (json: string) => `Here is the call:\n\n\`\`\`json\n${json}\n\`\`\``;

test('the same calls, in a fence or bare, whatever the order of their keys or of the calls', () => {
  expect(agreement(answer([area]), free(fenced('{"name": "area", "arguments": {"length": 7, "width": 5}}')))).toBe(
    'same',
  );
  const two = [area, { name: 'volume', args: { side: 2 } }];
  const raw = '{"name": "volume", "arguments": {"side": 2}}\n{"name": "area", "arguments": {"width": 5, "length": 7}}';
  expect(agreement(answer(two), free(raw))).toBe('same');
  expect(agreement(answer([]), free('A rectangle of 5 by 7 m has an area of 35 m².'))).toBe('same');
});

test('the same tools with other arguments, other tools, or another number of calls', () => {
  expect(agreement(answer([area]), free('{"name": "area", "arguments": {"width": 5, "length": 8}}'))).toBe(
    'other-arguments',
  );
  // A name no case offers is still read: that the model made it up is what the comparison is for.
  expect(agreement(answer([area]), free('{"name": "spaghetti_recipie", "arguments": {"sauce": "tomato"}}'))).toBe(
    'other-tools',
  );
  const twice =
    '{"name": "area", "arguments": {"width": 5, "length": 7}}, {"name": "area", "arguments": {"width": 1, "length": 2}}';
  expect(agreement(answer([area]), free(twice))).toBe('more-calls');
  expect(agreement(answer([area, area]), free('{"name": "area", "arguments": {"width": 5, "length": 7}}'))).toBe(
    'fewer-calls',
  );
});

test('a call the free output began but did not finish is told from an answer in words', () => {
  // As a 128-token cap leaves an indented call: the fence open, the JSON unfinished.
  const cut = '```json\n{\n  "name": "area",\n  "arguments": {\n    "width": 5,\n    "length":';
  expect(agreement(answer([area]), free(cut))).toBe('cut-call');
  expect(agreement(answer([area]), free('The area is 35 square metres.'))).toBe('no-call');
});
