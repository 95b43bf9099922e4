/**
 * The measure that bounds tool results: the exact length JSON.stringify
 * would write, found without writing it, stopped at the cap without walking
 * further (so an array of length 2**32-1 costs nothing), and a clear reason
 * for each value JSON cannot write.
 */
import { describe, expect, test } from 'vitest';
import { describeJsonProblem, jsonProblem } from '../../src/tools/plain-json';

/** Exactly what JSON writes, at the smallest cap that lets it through, and one less. */
function measuresExactly(value: unknown) {
  const length = (JSON.stringify(value) ?? 'null').length;
  expect(jsonProblem(value, 'v', length)).toBeUndefined();
  expect(jsonProblem(value, 'v', length - 1)).toEqual({ kind: 'too-large', chars: expect.any(Number) });
}

describe('jsonProblem', () => {
  test('counts what JSON.stringify writes, character for character', () => {
    const holes: unknown[] = [1];
    holes[4] = 'x';
    for (const value of [
      null,
      0,
      -1.5e-7,
      Number.NaN,
      Infinity,
      true,
      'plain',
      'quotes " and \\ and \n and \u0001 and é and 😀',
      [],
      {},
      [1, 'two', null, [3, [4]], { five: 5 }],
      { a: 1, skipped: undefined, b: [undefined, () => 1], 'odd key"': { c: new Date(0) } },
      holes,
      new Date(Number.NaN),
    ])
      measuresExactly(value);
  });

  test('stops at the cap: a sparse array of length 2**32-1 and one of 1e8 holes are too large at once', () => {
    const huge: number[] = [];
    huge[2 ** 32 - 2] = 1;
    const holes: string[] = [];
    holes[1e8] = 'x';
    expect(jsonProblem(huge, 'content')).toMatchObject({ kind: 'too-large' });
    expect(jsonProblem({ byId: holes }, 'content')).toMatchObject({ kind: 'too-large' });
    expect(jsonProblem('x'.repeat(2_000_000), 'content')).toMatchObject({ kind: 'too-large' });
  });

  test('names where a value JSON cannot write sits, what it is, and what to return instead', () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    let deep: unknown = 1;
    for (let i = 0; i < 300; i++) deep = [deep];
    const said = (value: unknown) => describeJsonProblem(jsonProblem(value, 'content')!);
    expect(said({ rows: [{ n: 1n }] })).toMatch(/^content\.rows\[0\]\.n is a BigInt; write it as a string/);
    expect(said(new Map())).toMatch(/^content is a Map; use Object\.fromEntries/);
    expect(said({ s: new Set() })).toMatch(/^content\.s is a Set; use an array/);
    expect(said([new TypeError('x')])).toMatch(/^content\[0\] is an Error; return its message/);
    expect(said({ r: /x/ })).toMatch(/^content\.r is a RegExp/);
    expect(said({ b: new Float32Array(2) })).toMatch(/^content\.b is a Float32Array/);
    expect(said({ b: new ArrayBuffer(2) })).toMatch(/^content\.b is an ArrayBuffer/);
    expect(said(cycle)).toMatch(/^content\.self is the object that contains it \(a cycle\)/);
    expect(said(deep)).toMatch(/nested more than 256 levels deep/);
    expect(describeJsonProblem(jsonProblem({ n: 1n })!)).toMatch(/^the value\.n is a BigInt/);
  });

  test('shared objects are counted as often as JSON writes them, and are no cycle', () => {
    const shared = { x: 1 };
    measuresExactly({ a: shared, b: shared, c: [shared, shared] });
  });
});
