// The judge against BFCL's checker rules (ast_checker.py, eval_runner.py), one rule per test, each
// written from the rule as the checker states it. Rule names in the titles are BFCL's error types.
import { describe, expect, test } from 'vitest';
import type { BfclCategory } from '../../../eval/bfcl/categories';
import { judge, type ModelOutput } from '../../../eval/bfcl/judge';
import type { BfclFunction, BfclParam, ExpectedCall, ModelCall } from '../../../eval/bfcl/types';

function fn(name: string, properties: Record<string, BfclParam>, required: string[] = []): BfclFunction {
  return { name, description: `${name} does something.`, parameters: { type: 'dict', properties, required } };
}

function verdict(
  category: BfclCategory,
  functions: BfclFunction[],
  expected: ExpectedCall[] | undefined,
  calls: ModelCall[],
  unreadable = 0,
) {
  const output: ModelOutput = { calls, unreadable };
  return judge({ id: 'test', category, messages: [], functions, expected }, output);
}

/** One function, one expected call, one call made: the simple checker. */
function simple(
  params: Record<string, BfclParam>,
  accepted: Record<string, unknown[]>,
  args: unknown,
  required?: string[],
) {
  return verdict('simple_python', [fn('f', params, required)], [{ f: accepted }], [{ name: 'f', args }]);
}

const int: BfclParam = { type: 'integer' };
const float: BfclParam = { type: 'float' };
const str: BfclParam = { type: 'string' };

describe('the function name', () => {
  test('wrong_func_name: a call to another function is wrong', () => {
    const v = verdict('simple_python', [fn('f', {})], [{ f: {} }], [{ name: 'g', args: {} }]);
    expect(v).toMatchObject({ verdict: 'wrong', rule: 'simple_function_checker:wrong_func_name' });
  });

  test('convert_func_name: a dotted name is called with underscores, as tools are named', () => {
    const functions = [fn('math.gcd', { a: int })];
    const expected = [{ 'math.gcd': { a: [4] } }];
    expect(verdict('simple_python', functions, expected, [{ name: 'math_gcd', args: { a: 4 } }])).toEqual({
      verdict: 'correct',
    });
    expect(verdict('simple_python', functions, expected, [{ name: 'math.gcd', args: { a: 4 } }])).toMatchObject({
      rule: 'simple_function_checker:wrong_func_name',
    });
  });
});

describe('required and optional arguments', () => {
  test('missing_required: a parameter the function requires must be there, whatever the answer says', () => {
    const v = simple({ a: int, b: int }, { a: [1], b: [2, ''] }, { a: 1 }, ['a', 'b']);
    expect(v).toMatchObject({ verdict: 'wrong', rule: 'simple_function_checker:missing_required' });
  });

  test('missing_optional: a parameter the answer names without "" must be there', () => {
    const v = simple({ a: int, b: int }, { a: [1], b: [2] }, { a: 1 }, ['a']);
    expect(v).toMatchObject({ verdict: 'wrong', rule: 'simple_function_checker:missing_optional' });
  });

  test('"" among the accepted values: the parameter may be left out, or given an accepted value', () => {
    expect(simple({ a: int, b: int }, { a: [1], b: [2, ''] }, { a: 1 }, ['a'])).toEqual({ verdict: 'correct' });
    expect(simple({ a: int, b: int }, { a: [1], b: [2, ''] }, { a: 1, b: 2 }, ['a'])).toEqual({ verdict: 'correct' });
    expect(simple({ a: int, b: int }, { a: [1], b: [2, ''] }, { a: 1, b: 3 }, ['a'])).toMatchObject({
      rule: 'value_error:others',
    });
  });

  test('unexpected_param: a parameter the function does not declare is wrong', () => {
    const v = simple({ a: int }, { a: [1] }, { a: 1, z: 2 });
    expect(v).toMatchObject({ verdict: 'wrong', rule: 'simple_function_checker:unexpected_param' });
  });

  test('unexpected_param: so is a declared parameter that the answer does not name', () => {
    const v = simple({ a: int, b: int }, { a: [1] }, { a: 1, b: 2 });
    expect(v).toMatchObject({ verdict: 'wrong', rule: 'simple_function_checker:unexpected_param' });
  });
});

describe('accepted values and types', () => {
  test('value_error:others: a number must be one of the accepted values', () => {
    expect(simple({ n: int }, { n: [3, 4] }, { n: 4 })).toEqual({ verdict: 'correct' });
    expect(simple({ n: int }, { n: [3, 4] }, { n: 5 })).toMatchObject({ rule: 'value_error:others' });
  });

  test('int where float is asked: Python turns it into a float, so 5 answers 5.0', () => {
    expect(simple({ x: float }, { x: [5.0] }, { x: 5 })).toEqual({ verdict: 'correct' });
    expect(simple({ x: float }, { x: [5.5] }, { x: 5 })).toMatchObject({ rule: 'value_error:others' });
  });

  test('type_error:simple: a float is no integer, a string no number, a boolean no integer', () => {
    expect(simple({ n: int }, { n: [2] }, { n: 2.5 })).toMatchObject({ rule: 'type_error:simple' });
    expect(simple({ n: int }, { n: [2] }, { n: '2' })).toMatchObject({ rule: 'type_error:simple' });
    expect(simple({ n: int }, { n: [1] }, { n: true })).toMatchObject({ rule: 'type_error:simple' });
  });

  test('any is checked as a string (PYTHON_TYPE_MAPPING), unless the answer is of another type', () => {
    expect(simple({ v: { type: 'any' } }, { v: ['x**2'] }, { v: 'x ** 2' })).toEqual({ verdict: 'correct' });
    expect(simple({ v: { type: 'any' } }, { v: ['3'] }, { v: 3 })).toMatchObject({ rule: 'type_error:simple' });
    expect(simple({ v: { type: 'any' } }, { v: [3] }, { v: 3 })).toEqual({ verdict: 'correct' });
  });

  test('a variable: an answer whose type is not the parameter’s is compared as it is, not normalized', () => {
    // The parameter is an integer, the answer the name of a variable: type_checker's is_variable.
    expect(simple({ n: int }, { n: ['count'] }, { n: 'count' })).toEqual({ verdict: 'correct' });
    expect(simple({ n: int }, { n: ['count'] }, { n: 'Count' })).toMatchObject({ rule: 'value_error:others' });
  });
});

describe('string normalization (standardize_string)', () => {
  test('case, spaces and , . / - _ * ^ do not matter', () => {
    expect(simple({ d: str }, { d: ['April 1, 2024'] }, { d: 'april 1 2024' })).toEqual({ verdict: 'correct' });
    expect(simple({ c: str }, { c: ['New York, NY'] }, { c: 'new-york_ny.' })).toEqual({ verdict: 'correct' });
    expect(simple({ c: str }, { c: ['x^2*y'] }, { c: 'X2Y' })).toEqual({ verdict: 'correct' });
  });

  test('single quotes count as double quotes; other characters still matter', () => {
    expect(simple({ q: str }, { q: ['say "hi"'] }, { q: "say 'hi'" })).toEqual({ verdict: 'correct' });
    expect(simple({ c: str }, { c: ['San Francisco'] }, { c: 'San Francisco!' })).toMatchObject({
      rule: 'value_error:string',
    });
  });
});

describe('lists', () => {
  const list: BfclParam = { type: 'array', items: { type: 'string' } };

  test('value_error:list/tuple: the items in the answer’s order, strings normalized', () => {
    expect(simple({ l: list }, { l: [['New York', 'Boston']] }, { l: ['new york', 'BOSTON'] })).toEqual({
      verdict: 'correct',
    });
    expect(simple({ l: list }, { l: [['New York', 'Boston']] }, { l: ['Boston', 'New York'] })).toMatchObject({
      rule: 'value_error:list/tuple',
    });
  });

  test('a tuple is a list, and any of several accepted lists will do', () => {
    const tuple: BfclParam = { type: 'tuple', items: { type: 'float' } };
    expect(
      simple(
        { t: tuple },
        {
          t: [
            [1.5, 2.5],
            [2.5, 1.5],
          ],
        },
        { t: [2.5, 1.5] },
      ),
    ).toEqual({ verdict: 'correct' });
  });

  test('type_error:nested: each item must have the item type', () => {
    const ints: BfclParam = { type: 'array', items: { type: 'integer' } };
    expect(simple({ l: ints }, { l: [[1, 2]] }, { l: ['1', '2'] })).toMatchObject({ rule: 'type_error:nested' });
  });

  test('"" accepts leaving the list out, and Python reads "" as an empty list too', () => {
    expect(simple({ l: list }, { l: [['a'], ''] }, {})).toEqual({ verdict: 'correct' });
    expect(simple({ l: list }, { l: [['a'], ''] }, { l: [] })).toEqual({ verdict: 'correct' });
  });
});

describe('dicts (dict_checker) and lists of dicts (list_dict_checker)', () => {
  const dict: BfclParam = { type: 'dict', properties: { size: str, milk: str } };
  const accepted = { p: [{ size: ['Large'], milk: ['almond', ''] }] };

  test('each key’s value must be accepted, strings normalized; an optional key may be left out', () => {
    expect(simple({ p: dict }, accepted, { p: { size: 'large', milk: 'Almond' } })).toEqual({ verdict: 'correct' });
    expect(simple({ p: dict }, accepted, { p: { size: 'large' } })).toEqual({ verdict: 'correct' });
  });

  test('value_error:dict_value: a value no answer accepts', () => {
    expect(simple({ p: dict }, accepted, { p: { size: 'small' } })).toMatchObject({ rule: 'value_error:dict_value' });
  });

  test('value_error:dict_key: a key no answer has, or a needed key left out', () => {
    expect(simple({ p: dict }, accepted, { p: { size: 'large', sugar: 'none' } })).toMatchObject({
      rule: 'value_error:dict_key',
    });
    expect(simple({ p: dict }, accepted, { p: { milk: 'almond' } })).toMatchObject({ rule: 'value_error:dict_key' });
  });

  test('value_error:list_dict_count, and the dicts of a list in the answer’s order', () => {
    const conditions: BfclParam = { type: 'array', items: { type: 'dict', properties: { field: str } } };
    const answer = { c: [[{ field: ['age'] }, { field: ['job'] }]] };
    expect(simple({ c: conditions }, answer, { c: [{ field: 'Age' }, { field: 'job' }] })).toEqual({
      verdict: 'correct',
    });
    expect(simple({ c: conditions }, answer, { c: [{ field: 'age' }] })).toMatchObject({
      rule: 'value_error:list_dict_count',
    });
    expect(simple({ c: conditions }, answer, { c: [{ field: 'job' }, { field: 'age' }] })).toMatchObject({
      rule: 'value_error:dict_value',
    });
  });
});

describe('how many calls, and which', () => {
  const a = fn('a', { x: int });
  const b = fn('b', { y: str });

  test('simple_function_checker:wrong_count: exactly one call', () => {
    const v = verdict(
      'simple_python',
      [a],
      [{ a: { x: [1] } }],
      [
        { name: 'a', args: { x: 1 } },
        { name: 'a', args: { x: 1 } },
      ],
    );
    expect(v).toMatchObject({ rule: 'simple_function_checker:wrong_count' });
  });

  test('multiple: the call is checked against the function the answer names', () => {
    const expected = [{ b: { y: ['hi'] } }];
    expect(verdict('multiple', [a, b], expected, [{ name: 'b', args: { y: 'Hi' } }])).toEqual({ verdict: 'correct' });
    expect(verdict('multiple', [a, b], expected, [{ name: 'a', args: { x: 1 } }])).toMatchObject({
      rule: 'simple_function_checker:wrong_func_name',
    });
    expect(verdict('multiple', [a, b], expected, [])).toMatchObject({ rule: 'multiple_function_checker:wrong_count' });
  });

  test('parallel: the calls may come in any order', () => {
    const expected: ExpectedCall[] = [{ a: { x: [1] } }, { b: { y: ['hi'] } }, { a: { x: [2] } }];
    const calls = [
      { name: 'a', args: { x: 2 } },
      { name: 'b', args: { y: 'hi' } },
      { name: 'a', args: { x: 1 } },
    ];
    expect(verdict('parallel_multiple', [a, b], expected, calls)).toEqual({ verdict: 'correct' });
    expect(verdict('live_parallel', [a, b], expected, calls.slice(1))).toMatchObject({
      rule: 'parallel_function_checker_no_order:wrong_count',
    });
  });

  test('parallel: cannot_find_match when one answer has no call left that fits', () => {
    const expected = [{ a: { x: [1] } }, { a: { x: [2] } }];
    const calls = [
      { name: 'a', args: { x: 1 } },
      { name: 'a', args: { x: 1 } },
    ];
    expect(verdict('parallel', [a], expected, calls)).toMatchObject({
      rule: 'parallel_function_checker_no_order:cannot_find_match',
    });
  });

  test('parallel: matching is greedy in the answers’ order, as BFCL’s is (not a best matching)', () => {
    // The first answer takes the first call that fits it (x=1), leaving x=2 for an answer that needs x=1.
    const expected = [{ a: { x: [1, 2] } }, { a: { x: [1] } }];
    const calls = [
      { name: 'a', args: { x: 1 } },
      { name: 'a', args: { x: 2 } },
    ];
    expect(verdict('parallel', [a], expected, calls)).toMatchObject({ verdict: 'wrong' });
    expect(verdict('parallel', [a], expected, [...calls].reverse())).toEqual({ verdict: 'correct' });
  });
});

describe('irrelevance, relevance and output that cannot be read', () => {
  const a = fn('a', { x: int });

  test('irrelevance: right when nothing is called', () => {
    expect(verdict('irrelevance', [a], undefined, [])).toEqual({ verdict: 'correct' });
    expect(verdict('live_irrelevance', [a], undefined, [{ name: 'a', args: { x: 1 } }])).toMatchObject({
      verdict: 'wrong',
      rule: 'irrelevance_error:decoder_success',
    });
  });

  test('irrelevance: a call that cannot be read is no call, as a failed decode is for BFCL', () => {
    expect(verdict('irrelevance', [a], undefined, [], 1)).toEqual({ verdict: 'correct' });
  });

  test('relevance: right when something readable is called, whatever it is', () => {
    expect(verdict('live_relevance', [a], undefined, [{ name: 'a', args: { x: 99 } }])).toEqual({ verdict: 'correct' });
    expect(verdict('live_relevance', [a], undefined, [])).toMatchObject({ rule: 'relevance_error:decoder_failed' });
    expect(verdict('live_relevance', [a], undefined, [], 1)).toMatchObject({ rule: 'relevance_error:decoder_failed' });
  });

  test('ast_decoder:decoder_failed: a call that cannot be read makes the answer invalid', () => {
    const v = verdict('simple_python', [a], [{ a: { x: [1] } }], [{ name: 'a', args: { x: 1 } }], 1);
    expect(v).toMatchObject({ verdict: 'invalid', rule: 'ast_decoder:decoder_failed' });
  });

  test('ast_decoder:decoder_wrong_output_format: arguments must be an object', () => {
    const v = verdict('simple_python', [a], [{ a: { x: [1] } }], [{ name: 'a', args: [1] }]);
    expect(v).toMatchObject({ verdict: 'invalid', rule: 'ast_decoder:decoder_wrong_output_format' });
  });
});
