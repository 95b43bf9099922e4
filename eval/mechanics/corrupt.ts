/**
 * Wrong answers on purpose, each with the rule BFCL's checker must give it:
 * the other half of proving the judge (and the runner) with no model. Each
 * takes the possible calls of a case with answers (bfcl/possible-calls.ts).
 * The rule is predicted from the parameter's type alone, not by asking the judge.
 */
import { checkerFor } from '../bfcl/categories';
import { bfclType } from '../bfcl/type-map';
import { pyIn, pyType, standardize } from '../bfcl/python-values';
import { toolName } from '../bfcl/tool-name';
import type { BfclCase, BfclFunction, ModelCall } from '../bfcl/types';

export interface Corrupted {
  calls: ModelCall[];
  /** BFCL's error type for it. */
  rule: string;
}

/** A rule about the first call as the category's checker reports it: a parallel checker only says no call matched. */
function ruleFor(testCase: BfclCase, callRule: string): string {
  return checkerFor(testCase.category) === 'parallel'
    ? 'parallel_function_checker_no_order:cannot_find_match'
    : callRule;
}

/** The first call's first argument that can take a value no answer accepts, of the right type. */
export function wrongValue(testCase: BfclCase, calls: ModelCall[]): Corrupted | undefined {
  const [first, ...rest] = calls;
  if (!first) return undefined;
  const { fn, accepted } = answerFor(testCase, first);
  for (const [param, value] of Object.entries(first.args as Record<string, unknown>)) {
    const declared = fn.parameters.properties[param];
    const values = accepted[param];
    if (!declared || !values) continue;
    const changed = changeValue(value, values, bfclType(declared.type).python, declared.items?.type);
    if (!changed) continue;
    const args = { ...(first.args as object), [param]: changed.value };
    return { calls: [{ name: first.name, args }, ...rest], rule: ruleFor(testCase, changed.rule) };
  }
  return undefined;
}

export function missingRequired(testCase: BfclCase, calls: ModelCall[]): Corrupted | undefined {
  const [first, ...rest] = calls;
  if (!first) return undefined;
  const { fn } = answerFor(testCase, first);
  const args = first.args as Record<string, unknown>;
  const dropped = (fn.parameters.required ?? []).find((param) => Object.hasOwn(args, param));
  if (dropped === undefined) return undefined;
  const { [dropped]: _gone, ...kept } = args;
  return {
    calls: [{ name: first.name, args: kept }, ...rest],
    rule: ruleFor(testCase, 'simple_function_checker:missing_required'),
  };
}

/** The first call made to another function the case declares (none when it declares one). */
export function otherFunction(testCase: BfclCase, calls: ModelCall[]): Corrupted | undefined {
  const [first, ...rest] = calls;
  const other = testCase.functions.map((fn) => toolName(fn.name)).find((name) => name !== first?.name);
  if (!first || !other) return undefined;
  return {
    calls: [{ name: other, args: first.args }, ...rest],
    rule: ruleFor(testCase, 'simple_function_checker:wrong_func_name'),
  };
}

/** The first call made to a function the case does not declare. */
export function wrongName(testCase: BfclCase, calls: ModelCall[]): Corrupted | undefined {
  const [first, ...rest] = calls;
  if (!first) return undefined;
  return {
    calls: [{ name: `${first.name}_v2`, args: first.args }, ...rest],
    rule: ruleFor(testCase, 'simple_function_checker:wrong_func_name'),
  };
}

/** One call too many (the first again), which every checker counts. */
export function extraCall(testCase: BfclCase, calls: ModelCall[]): Corrupted | undefined {
  if (!calls[0]) return undefined;
  const kind = checkerFor(testCase.category) as keyof typeof WRONG_COUNT;
  return { calls: [...calls, calls[0]], rule: WRONG_COUNT[kind] };
}

const WRONG_COUNT = {
  simple: 'simple_function_checker:wrong_count',
  multiple: 'multiple_function_checker:wrong_count',
  parallel: 'parallel_function_checker_no_order:wrong_count',
} as const;

function answerFor(testCase: BfclCase, call: ModelCall): { fn: BfclFunction; accepted: Record<string, unknown[]> } {
  for (const answer of testCase.expected ?? []) {
    const [name, accepted] = Object.entries(answer)[0]!;
    if (toolName(name) !== call.name) continue;
    const fn = testCase.functions.find((candidate) => candidate.name === name);
    if (fn) return { fn, accepted };
  }
  throw new Error(`${testCase.id}: no answer for a call to ${call.name}.`);
}

type Change = { value: unknown; rule: string } | undefined;

/** A value of the parameter's type that no accepted value equals. Answers of another type (variables) are left alone. */
function changeValue(value: unknown, accepted: unknown[], expected: string, itemType?: string): Change {
  const first = accepted.find((option) => option !== '');
  if (first === undefined || pyType(first, expected as never) !== expected) return undefined;
  const fresh = (candidate: unknown, rule: string): Change =>
    pyIn(candidate, accepted) ? undefined : { value: candidate, rule };
  switch (expected) {
    case 'str': {
      const changed = `${value as string} zz`;
      const taken = accepted.some((a) => typeof a === 'string' && standardize(a) === standardize(changed));
      return taken ? undefined : { value: changed, rule: 'value_error:string' };
    }
    case 'int':
      return fresh((value as number) + 1001, 'value_error:others');
    case 'float':
      return fresh((value as number) + 1000.5, 'value_error:others');
    case 'bool':
      return fresh(!value, 'value_error:others');
    case 'dict':
      return { value: { ...(value as object), zz_extra: 1 }, rule: 'value_error:dict_key' };
    case 'list': {
      const items = value as unknown[];
      if (bfclType(itemType).python === 'dict')
        return items[0] === undefined
          ? undefined
          : { value: [...items, items[0]], rule: 'value_error:list_dict_count' };
      const item = items[0] ?? SAMPLE_ITEMS[bfclType(itemType).python];
      return item === undefined ? undefined : fresh([...items, item], 'value_error:list/tuple');
    }
  }
  return undefined;
}

const SAMPLE_ITEMS: Record<string, unknown> = { str: 'zz', int: 7, float: 7.5, bool: true };
