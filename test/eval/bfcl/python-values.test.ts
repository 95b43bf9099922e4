// JSON values as BFCL's checker compares them in Python.
import { expect, test } from 'vitest';
import { pyEquals, pyIn, pyType, standardize } from '../../../eval/bfcl/python-values';

test('Python’s == : True == 1, 1 == 1.0, lists item by item, dicts whatever their key order', () => {
  expect(pyEquals(true, 1)).toBe(true);
  expect(pyEquals(false, 0)).toBe(true);
  expect(pyEquals(1, 1.0)).toBe(true);
  expect(pyEquals('1', 1)).toBe(false);
  expect(pyEquals([1, 'a'], [1, 'a'])).toBe(true);
  expect(pyEquals([1, 'a'], ['a', 1])).toBe(false);
  expect(pyEquals({ a: 1, b: [2] }, { b: [2], a: 1 })).toBe(true);
  expect(pyEquals({ a: 1 }, { a: 1, b: 2 })).toBe(false);
  expect(pyEquals(null, null)).toBe(true);
  expect(pyIn('', ['x', ''])).toBe(true);
  expect(pyIn('', [0, false, null])).toBe(false);
});

test('json.loads types: a whole number is an int, unless a float is expected there', () => {
  expect(pyType(2)).toBe('int');
  expect(pyType(2, 'float')).toBe('float');
  expect(pyType(2.5)).toBe('float');
  expect(pyType(true)).toBe('bool');
  expect(pyType(null)).toBe('NoneType');
  expect(pyType([])).toBe('list');
  expect(pyType({})).toBe('dict');
});

test('standardize_string drops spaces and ,./-_*^, lowers case, and makes single quotes double', () => {
  expect(standardize("New York, N.Y. - it's_*^/")).toBe('newyorknyit"s');
  expect(standardize('Tab\tand: colon')).toBe('tab\tand:colon');
});
