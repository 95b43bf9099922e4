/**
 * The calls a case's answer makes, written as a model would: each argument at
 * its first accepted value, left out when that is "" (it may be left out) and
 * the function does not require it. What a perfect model writes, for tests
 * and the mechanics check.
 */
import { isDict } from './python-values';
import { toolName } from './tool-name';
import type { BfclCase, ModelCall } from './types';

export function possibleCalls(testCase: BfclCase): ModelCall[] {
  return (testCase.expected ?? []).map((answer) => {
    const [name, accepted] = Object.entries(answer)[0]!;
    const required = testCase.functions.find((fn) => fn.name === name)?.parameters.required ?? [];
    return { name: toolName(name), args: firstValues(accepted, required) };
  });
}

/** An answer's `{ key: accepted values }` as one value per key. */
function firstValues(accepted: Record<string, unknown>, required: readonly string[] = []): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(accepted).flatMap(([key, values]) => {
      const options = Array.isArray(values) ? values : [values];
      const at = options.findIndex((value) => value !== '' || !required.includes(key));
      // An answer may accept null (None): find by index, so that it is not taken for "none found".
      const first = at === -1 ? '' : options[at];
      return first === '' && !required.includes(key) ? [] : [[key, concrete(first)]];
    }),
  );
}

/** A dict in an answer holds accepted values per key too (dict_checker); a list of such dicts likewise. */
function concrete(value: unknown): unknown {
  if (isDict(value)) return firstValues(value);
  if (Array.isArray(value) && value.some(isDict)) return value.map(concrete);
  return value;
}
