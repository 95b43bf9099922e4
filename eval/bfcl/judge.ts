/**
 * Whether a model's calls answer a BFCL case, as BFCL's AST checker decides
 * (eval_checker/eval_runner.py and ast_eval/ast_checker.py):
 * - output that cannot be read as calls is `invalid` (BFCL's decoder failed);
 * - irrelevance: right when nothing was called (unreadable output counts as no call);
 * - relevance: right when something readable was called, whatever it was;
 * - simple: exactly one call, checked against the one function and answer;
 * - multiple: as many calls as answers (one), checked against the answer's function;
 * - parallel (and parallel_multiple): as many calls as answers, matched in any
 *   order: each answer in turn takes the first call not yet taken that fits it.
 */
import { checkerFor } from './categories';
import type { Failure } from './judge-argument';
import { checkCall } from './judge-call';
import { isDict } from './python-values';
import type { BfclCase, BfclFunction, ExpectedCall, ModelCall } from './types';

/** What the model produced in its one step: the calls our reader read, and the call attempts it could not read. */
export interface ModelOutput {
  calls: readonly ModelCall[];
  unreadable: number;
}

export type Verdict = { verdict: 'correct' } | { verdict: 'wrong' | 'invalid'; rule: string; why: string };

const CORRECT: Verdict = { verdict: 'correct' };

/** BFCL's names of its checkers, which prefix their rules. */
const CHECKERS = {
  simple: 'simple_function_checker',
  multiple: 'multiple_function_checker',
  parallel: 'parallel_function_checker_no_order',
} as const;

export function judge(testCase: BfclCase, output: ModelOutput): Verdict {
  const kind = checkerFor(testCase.category);
  const decoded = output.unreadable === 0 && output.calls.every((call) => isDict(call.args));
  const called = decoded && output.calls.length > 0;
  if (kind === 'irrelevance')
    return called
      ? wrong('irrelevance_error:decoder_success', `No call was right here; the model called ${names(output)}.`)
      : CORRECT;
  if (kind === 'relevance')
    return called ? CORRECT : wrong('relevance_error:decoder_failed', 'A call was right here; the model made none.');
  if (output.unreadable > 0)
    return invalid(
      'ast_decoder:decoder_failed',
      `${output.unreadable} call${output.unreadable > 1 ? 's' : ''} could not be read.`,
    );
  if (!decoded)
    return invalid('ast_decoder:decoder_wrong_output_format', 'A call has arguments that are not an object.');

  const expected = testCase.expected;
  if (!expected) throw new Error(`BFCL case ${testCase.id} has no possible answer to judge against.`);
  const { calls } = output;
  if (kind === 'simple') {
    if (calls.length !== 1) return wrongCount(CHECKERS.simple, calls.length, 1);
    return verdictOf(checkCall(testCase.functions[0]!, calls[0]!, acceptedOf(expected[0]!)));
  }
  if (calls.length !== expected.length) return wrongCount(CHECKERS[kind], calls.length, expected.length);
  if (kind === 'multiple') return verdictOf(checkAgainst(testCase, calls[0]!, expected[0]!));
  return matchInAnyOrder(testCase, calls, expected);
}

/** parallel_function_checker_no_order: greedy, in the answers' order, as BFCL matches. */
function matchInAnyOrder(testCase: BfclCase, calls: readonly ModelCall[], expected: ExpectedCall[]): Verdict {
  const taken = new Set<number>();
  for (const [i, answer] of expected.entries()) {
    let failure: Failure | undefined;
    const match = calls.findIndex((call, index) => {
      if (taken.has(index)) return false;
      failure = checkAgainst(testCase, call, answer);
      return failure === undefined;
    });
    if (match === -1)
      return wrong(
        `${CHECKERS.parallel}:cannot_find_match`,
        `No call matches expected call ${i + 1} (${nameOf(answer)}); the last mismatch: ${failure?.why ?? 'none left'}`,
      );
    taken.add(match);
  }
  return CORRECT;
}

function checkAgainst(testCase: BfclCase, call: ModelCall, answer: ExpectedCall): Failure | undefined {
  const fn = describedFunction(testCase.functions, nameOf(answer));
  if (!fn) return { rule: 'bfcl_data:undeclared_function', why: `The answer names ${nameOf(answer)}, not declared.` };
  return checkCall(fn, call, acceptedOf(answer));
}

function describedFunction(functions: readonly BfclFunction[], name: string): BfclFunction | undefined {
  return functions.find((fn) => fn.name === name);
}

function nameOf(answer: ExpectedCall): string {
  return Object.keys(answer)[0]!;
}

function acceptedOf(answer: ExpectedCall): Record<string, unknown[]> {
  return Object.values(answer)[0]!;
}

function verdictOf(failure: Failure | undefined): Verdict {
  return failure ? wrong(failure.rule, failure.why) : CORRECT;
}

function wrongCount(checker: string, made: number, expected: number): Verdict {
  return wrong(`${checker}:wrong_count`, `The model made ${made} call${made === 1 ? '' : 's'}; ${expected} expected.`);
}

function names(output: ModelOutput): string {
  return output.calls.map((call) => call.name).join(', ');
}

function wrong(rule: string, why: string): Verdict {
  return { verdict: 'wrong', rule, why };
}

function invalid(rule: string, why: string): Verdict {
  return { verdict: 'invalid', rule, why };
}
