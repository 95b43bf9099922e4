/**
 * One argument the model wrote, against its accepted values: the per-parameter
 * part of BFCL's simple_function_checker (ast_checker.py), with its type,
 * string, list, dict and list-of-dict checks. Rule names are BFCL's error types.
 */
import { bfclType } from './type-map';
import { isDict, pyIn, pyType, shown, standardize, type PyType } from './python-values';
import type { BfclParam } from './types';

export interface Failure {
  /** BFCL's error type, e.g. `value_error:string`. */
  rule: string;
  why: string;
}

/** BFCL types whose items are type-checked too. */
const NESTED = new Set(['array', 'tuple']);

export function checkArgument(
  name: string,
  value: unknown,
  accepted: readonly unknown[],
  param: BfclParam,
): Failure | undefined {
  const expected = bfclType(param.type).python;
  const nested = param.type && NESTED.has(param.type) && param.items ? bfclType(param.items.type).python : undefined;
  const type = checkType(name, value, accepted, expected, nested);
  if ('rule' in type) return type;
  // An answer written as a variable name (its type is not the parameter's) is compared as it is.
  if (!type.isVariable) {
    if (expected === 'dict') return checkDict(name, value, accepted);
    if (expected === 'list' && nested === 'dict') return checkListOfDicts(name, value as unknown[], accepted);
    if (expected === 'str') return checkString(name, value as string, accepted);
    if (expected === 'list') return checkList(name, value as unknown[], accepted);
  }
  if (!pyIn(value, accepted))
    return { rule: 'value_error:others', why: `${name} is ${shown(value)}; accepted: ${shown(accepted)}.` };
  return undefined;
}

/**
 * type_checker: the value must have the parameter's type, or the type of the
 * first accepted value when that differs (BFCL then reads the answer as a
 * variable). A list's items must have the item type of some accepted list.
 */
function checkType(
  name: string,
  value: unknown,
  accepted: readonly unknown[],
  expected: PyType,
  nested: PyType | undefined,
): { isVariable: boolean } | Failure {
  const answerType = firstAnswerType(accepted, expected);
  const isVariable = answerType !== undefined && answerType !== expected;
  const valueType = pyType(value, expected);
  if (valueType === expected) {
    if (nested === undefined) return { isVariable };
    // An accepted value that is not a list (e.g. "" for "may be left out") checks no item.
    const itemsFit = accepted.some(
      (option) => !Array.isArray(option) || (value as unknown[]).every((item) => itemFits(item, option, nested)),
    );
    if (itemsFit) return { isVariable };
    return {
      rule: valueType === answerType ? 'type_error:nested' : 'type_error:simple',
      why: `${name} is ${shown(value)}: its items should be ${nested}.`,
    };
  }
  if (answerType !== undefined && valueType === answerType) return { isVariable: true };
  return { rule: 'type_error:simple', why: `${name} should be ${expected}, got ${valueType}: ${shown(value)}.` };
}

/** The inner type_checker: an item has the item type, or the type of that accepted list's first item. */
function itemFits(item: unknown, option: readonly unknown[], nested: PyType): boolean {
  const itemType = pyType(item, nested);
  return itemType === nested || itemType === firstAnswerType(option, nested);
}

/** get_possible_answer_type: the type of the first accepted value other than "". */
function firstAnswerType(accepted: readonly unknown[], expected: PyType): PyType | undefined {
  const first = accepted.find((option) => option !== '');
  return first === undefined ? undefined : pyType(first, expected);
}

/** string_checker: equal after standardize() to some accepted string. */
function checkString(name: string, value: string, accepted: readonly unknown[]): Failure | undefined {
  const options = accepted.filter((option): option is string => typeof option === 'string').map(standardize);
  if (options.includes(standardize(value))) return undefined;
  return {
    rule: 'value_error:string',
    why: `${name} is ${shown(value)}; accepted (case, spaces and ,./-_*^ aside): ${shown(accepted)}.`,
  };
}

/** list_checker: equal, in order, to some accepted list, strings standardized. */
function checkList(name: string, value: unknown[], accepted: readonly unknown[]): Failure | undefined {
  const options = accepted.flatMap((option) => {
    const items = pythonItems(option);
    return items ? [items.map(standardizeIfString)] : [];
  });
  if (pyIn(value.map(standardizeIfString), options)) return undefined;
  return { rule: 'value_error:list/tuple', why: `${name} is ${shown(value)}; accepted: ${shown(accepted)}.` };
}

/**
 * dict_checker: some accepted dict (other than "") has every key the model
 * wrote, accepts each value (strings standardized), and misses none of its
 * keys that cannot be left out.
 */
function checkDict(name: string, value: unknown, accepted: readonly unknown[]): Failure | undefined {
  let failure: Failure = { rule: 'dict_checker:unclear', why: `${name}: no accepted dict to compare with.` };
  for (const option of accepted) {
    if (option === '') continue;
    const mismatch = dictMismatch(name, value, option);
    if (!mismatch) return undefined;
    failure = mismatch;
  }
  return failure;
}

function dictMismatch(name: string, value: unknown, option: unknown): Failure | undefined {
  if (!isDict(value) || !isDict(option))
    return { rule: 'value_error:dict_value', why: `${name} is ${shown(value)}; accepted: ${shown(option)}.` };
  for (const [key, item] of Object.entries(value)) {
    if (!Object.hasOwn(option, key))
      return { rule: 'value_error:dict_key', why: `${name} has the key "${key}", which no answer has.` };
    const values = asList(option[key]).map(standardizeIfString);
    if (!pyIn(standardizeIfString(item), values))
      return {
        rule: 'value_error:dict_value',
        why: `${name}.${key} is ${shown(item)}; accepted: ${shown(option[key])}.`,
      };
  }
  for (const [key, values] of Object.entries(option)) {
    if (!Object.hasOwn(value, key) && !pyIn('', asList(values)))
      return { rule: 'value_error:dict_key', why: `${name} lacks the key "${key}".` };
  }
  return undefined;
}

/** list_dict_checker: as many dicts as some accepted list, each matching the one at its place. */
function checkListOfDicts(name: string, value: unknown[], accepted: readonly unknown[]): Failure | undefined {
  let failure: Failure = { rule: 'list_dict_checker:unclear', why: `${name}: no accepted list to compare with.` };
  for (const option of accepted) {
    const dicts = option === '' ? [] : Array.isArray(option) ? option : undefined;
    if (!dicts || dicts.length !== value.length) {
      failure = {
        rule: 'value_error:list_dict_count',
        why: `${name} has ${value.length} dicts; an answer has ${dicts?.length ?? 'none'}.`,
      };
      continue;
    }
    const mismatch = value.map((item, i) => checkDict(name, item, [dicts[i]])).find(Boolean);
    if (!mismatch) return undefined;
    failure = mismatch;
  }
  return failure;
}

/**
 * An accepted value as Python iterates it: a list's items, a string's
 * characters (so "" accepts the empty list), a dict's keys. Anything else
 * BFCL cannot iterate, and it accepts nothing.
 */
function pythonItems(option: unknown): unknown[] | undefined {
  if (Array.isArray(option)) return option;
  if (typeof option === 'string') return [...option];
  if (isDict(option)) return Object.keys(option);
  return undefined;
}

function asList(values: unknown): unknown[] {
  return Array.isArray(values) ? values : [values];
}

function standardizeIfString(value: unknown): unknown {
  return typeof value === 'string' ? standardize(value) : value;
}
